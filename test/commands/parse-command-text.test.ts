import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseCommandText, tokenize } from "../../commands/parse-command-text.ts";
import { usageOf } from "../../commands/arg-specs.ts";
import { COMMANDS } from "../../commands/index.ts";
import { defineCommand } from "../../commands/types.ts";
import { RlError } from "../../src/errors.ts";

// Not "test": the registry has a real /rl test; this one exercises every flag type.
const trial = defineCommand({
  name: "trial",
  summary: "t",
  description: "t",
  args: z.object({
    steps: z.number().int().min(1).optional(),
    ratio: z.number().optional(),
    all: z.boolean().optional(),
    models: z.array(z.string()).optional(),
  }),
  permission: "read",
  uses: [],
  run: async () => ({}),
});
const commands = [...COMMANDS, trial];

function usageErrorOf(text: string): RlError {
  try {
    parseCommandText(text, commands);
  } catch (err) {
    if (err instanceof RlError) return err;
    throw err;
  }
  throw new Error(`"${text}" parsed`);
}

describe("parseCommandText", () => {
  it("maps words to positional arguments", () => {
    const { command, args } = parseCommandText("/rl set group_size 8", commands);
    expect(command.name).toBe("set");
    expect(args).toEqual({ field: "group_size", value: "8" });
  });

  it("keeps the rest of the line verbatim for the last positional", () => {
    expect(parseCommandText('/rl set operations ["add", "sub"]', commands).args.value).toBe('["add", "sub"]');
    expect(parseCommandText("/rl set wandb_name my first run", commands).args.value).toBe("my first run");
    expect(parseCommandText('/rl set wandb_name "quoted  run"', commands).args.value).toBe("quoted  run");
  });

  it("keeps quotes inside a rest-of-line word (JSON without spaces), and apostrophes inside words", () => {
    expect(parseCommandText('/rl set extra {"key":1}', commands).args.value).toBe('{"key":1}');
    expect(parseCommandText("/rl set extra \"{'k': 1}\"", commands).args.value).toBe("{'k': 1}");
    expect(parseCommandText("/rl set wandb_name don't stop", commands).args.value).toBe("don't stop");
    expect(parseCommandText("/rl select it's", commands).args.name).toBe("it's");
    expect(() => parseCommandText("/rl select 'open", commands)).toThrow(/Unclosed quote/);
  });

  it("treats empty text and bare /rl as help", () => {
    expect(parseCommandText("/rl", commands).command.name).toBe("help");
    expect(parseCommandText("", commands).command.name).toBe("help");
    expect(parseCommandText("rl envs", commands).command.name).toBe("envs");
  });

  it("parses typed flags in both forms", () => {
    expect(parseCommandText("/rl trial --steps 3 --ratio=0.5 --all --models a,b", commands).args).toEqual({
      steps: 3,
      ratio: 0.5,
      all: true,
      models: ["a", "b"],
    });
  });

  it("gives the usage for anything it cannot parse", () => {
    expect(usageErrorOf("/rl set group_size").message).toContain("Usage: /rl set <field> <value...>");
    expect(usageErrorOf("/rl trial --steps three").message).toMatch(/whole number/);
    expect(usageErrorOf("/rl trial --bogus 1").message).toMatch(/Unknown option --bogus/);
    expect(usageErrorOf("/rl trial --steps").message).toMatch(/needs a value/);
    expect(usageErrorOf('/rl select "unclosed').message).toMatch(/Unclosed quote/);
    expect(usageErrorOf("/rl select a b").message).toMatch(/Too many words/);
  });

  it("suggests the nearest command for a typo", () => {
    const err = usageErrorOf("/rl confg");
    expect(err.code).toBe("USAGE");
    expect(err.message).toContain("/rl config");
  });

  it("refuses overlong input", () => {
    expect(usageErrorOf(`/rl select ${"x".repeat(9000)}`).message).toMatch(/limit/);
  });

  it("builds usage lines from the zod schema", () => {
    expect(usageOf(trial)).toBe("/rl trial [--steps N] [--ratio N] [--all] [--models MODELS]");
  });
});

describe("tokenize", () => {
  it("handles quotes, smart quotes and whitespace", () => {
    expect(tokenize(`a "b c"  'd'  “e f”`).map((t) => t.value)).toEqual(["a", "b c", "d", "e f"]);
  });
});
