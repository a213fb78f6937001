// The Discord renderer, button ids and command JSON stay within every Discord limit, whatever a reply holds.
import { describe, expect, it } from "vitest";
import { createButtonStore } from "../../adapters/discord/discord-buttons.ts";
import { buildRlCommand } from "../../adapters/discord/discord-command-json.ts";
import { clip } from "../../adapters/discord/discord-limits.ts";
import { renderDiscordReply, type DiscordMessage } from "../../adapters/discord/discord-render.ts";
import { createRedactor } from "../../src/redact.ts";
import type { Reply } from "../../src/reply.ts";
import { validateCommands, validateMessageBody } from "../fakes/discord-validate.ts";
import { TEST_COMMANDS } from "./test-commands.ts";

const SECRET = "sk-live-0123456789abcdef";
const redact = createRedactor([SECRET]);
const store = createButtonStore({ redact });
const render = (reply: Reply): DiscordMessage => renderDiscordReply(reply, { redact, buttonId: (b) => store.idFor(b) });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function expectValid(message: DiscordMessage): void {
  expect(validateMessageBody({ embeds: message.embeds, components: message.components })).toEqual([]);
  expect(JSON.stringify(message)).not.toMatch(LONE_SURROGATE);
}

describe("renderDiscordReply", () => {
  it("spreads 100 fields over embeds of at most 25", () => {
    const m = render({
      title: "Config",
      fields: Array.from({ length: 100 }, (_, i) => ({ label: `field_${i}`, value: `value ${i}` })),
    });
    expectValid(m);
    expect(m.embeds.flatMap((e) => e.fields ?? [])).toHaveLength(100);
    expect(m.embeds.every((e) => (e.fields?.length ?? 0) <= 25)).toBe(true);
    expect(m.trimmed).toEqual([]);
  });

  it("fits a 20,000-character code block: fenced, cut at a line, and saying what was left out", () => {
    const log = Array.from(
      { length: 500 },
      (_, i) => `step ${String(i).padStart(4, "0")} loss=${(1 / (i + 1)).toFixed(6)} ${"x".repeat(20)}`,
    ).join("\n");
    expect(log.length).toBeGreaterThan(20_000);
    const m = render({ title: "Logs", blocks: [{ kind: "code", title: "trainer.log", content: log }] });
    expectValid(m);
    const code = m.embeds.filter((e) => e.description?.startsWith("```"));
    expect(code.length).toBeGreaterThan(0);
    for (const e of code) expect(e.description?.endsWith("```")).toBe(true);
    expect(m.embeds.at(-1)?.footer?.text).toMatch(/characters not shown/);
    expect(m.trimmed.length).toBeGreaterThan(0);
  });

  it("keeps 40 buttons to 5 rows of 5 with short, distinct custom_ids", () => {
    const m = render({
      title: "Runs",
      buttons: Array.from({ length: 40 }, (_, i) => ({
        kind: "command" as const,
        label: `Stop run ${i} ${"!".repeat(100)}`,
        command: `/rl stop run-${i}`,
      })),
    });
    expectValid(m);
    expect(m.components).toHaveLength(5);
    expect(m.components.every((r) => r.components.length === 5)).toBe(true);
    const ids = m.components.flatMap((r) => r.components.map((b) => b.custom_id));
    expect(new Set(ids).size).toBe(25);
    expect(ids.every((id) => id.length <= 100)).toBe(true);
  });

  it("keeps everything at once within every limit", () => {
    const huge: Reply = {
      title: "T".repeat(1000),
      text: "word ".repeat(3000),
      fields: Array.from({ length: 100 }, (_, i) => ({ label: "L".repeat(300), value: `${i} ${"v".repeat(2000)}` })),
      blocks: Array.from({ length: 5 }, () => ({
        kind: "code" as const,
        title: "B".repeat(400),
        content: "c".repeat(20_000),
      })),
      links: Array.from({ length: 50 }, (_, i) => ({
        label: `link ${i}`,
        url: `https://wandb.example/runs/${i}?q=(a b)`,
      })),
      buttons: Array.from({ length: 40 }, (_, i) => ({
        kind: "command" as const,
        label: `b${i}`,
        command: `/rl set field_${i} ${"y".repeat(200)}`,
      })),
      chart: { title: "reward", points: Array.from({ length: 10_000 }, (_, i) => ({ x: i, y: Math.sin(i / 100) })) },
      delivery: { ephemeral: true },
    };
    const m = render(huge);
    expectValid(m);
    expect(m.ephemeral).toBe(true);
    expect(m.embeds[0]?.title).toHaveLength(256);
  });

  it("fences code safely and renders a chart as a sparkline with its range", () => {
    const m = render({
      blocks: [{ kind: "code", content: "a\n```\nb" }],
      chart: { title: "loss", points: [1, 3, 2, 5].map((y, x) => ({ x, y })) },
    });
    expectValid(m);
    expect(m.embeds[0]?.description).toBe("```\na\n`\u200b``\nb\n```");
    expect(m.embeds[1]?.title).toBe("loss");
    expect(m.embeds[1]?.description).toContain("▁▅▃█");
    expect(m.embeds[1]?.description).toContain("min 1 · max 5 · last 5 · 4 points");
  });

  it("puts links in the embed as markdown and never cuts an emoji in half", () => {
    const m = render({
      title: `${"🚀".repeat(200)}`,
      links: [{ label: "WandB [run]", url: "https://wandb.ai/team/proj/runs/abc" }],
    });
    expectValid(m);
    expect(m.embeds[0]?.fields).toEqual([{ name: "Links", value: "[WandB run](https://wandb.ai/team/proj/runs/abc)" }]);
    expect(clip("a🚀", 2)).toBe("a…");
  });

  it("redacts every piece of text, and keeps commands with secrets out of custom_ids", () => {
    const m = render({
      title: `key ${SECRET}`,
      text: SECRET,
      fields: [{ label: SECRET, value: SECRET }],
      blocks: [{ kind: "code", title: SECRET, content: SECRET }],
      links: [{ label: SECRET, url: `https://x.example/${SECRET}` }],
      buttons: [{ kind: "command", label: SECRET, command: `/rl set api_key ${SECRET}` }],
    });
    expect(JSON.stringify(m)).not.toContain(SECRET);
    const id = m.components[0]!.components[0]!.custom_id;
    expect(store.resolve(id)).toEqual({ kind: "run", command: `/rl set api_key ${SECRET}` });
  });

  it("marks errors and fills empty replies and empty field values", () => {
    const m = render({
      title: "Could not do that",
      text: "nope",
      error: { code: "NOT_FOUND", message: "nope" },
      fields: [{ label: "", value: "  " }],
    });
    expectValid(m);
    expect(m.embeds[0]?.color).toBe(0xed4245);
    expect(render({}).embeds).toEqual([{ color: 0x5865f2, description: "Done." }]);
  });
});

describe("button ids", () => {
  it("inlines short commands, keeps long commands server-side, and gives Confirm / Cancel their prompt's confirmation id", () => {
    expect(store.idFor({ kind: "command", label: "Stop", command: "/rl stop r1" })).toBe("rl:r:/rl stop r1");
    const id = "AbCdEfGhIjKlMnOpQrSt_-";
    // The prompt's record is in the database: the id is all a custom_id carries, and it means the same after a restart.
    const confirm = store.idFor({ kind: "confirm", label: "Confirm", command: "/rl start", confirmation: id });
    expect(confirm).toBe(`rl:y:${id}`);
    expect(createButtonStore({ redact }).resolve(confirm)).toEqual({
      kind: "answer",
      confirmation: id,
      answer: "confirm",
    });
    expect(store.resolve(confirm)).toEqual({ kind: "answer", confirmation: id, answer: "confirm" });
    expect(store.resolve(store.idFor({ kind: "cancel", label: "Cancel", confirmation: id }))).toEqual({
      kind: "answer",
      confirmation: id,
      answer: "cancel",
    });
    // A Cancel that answers no prompt is no button at all.
    expect(store.idFor({ kind: "cancel", label: "Cancel", confirmation: "" })).toBe("");
    const long = `/rl set wandb_name ${"n".repeat(200)}`;
    const longId = store.idFor({ kind: "command", label: "Set", command: long });
    expect(longId.length).toBeLessThanOrEqual(100);
    expect(store.resolve(longId)).toEqual({ kind: "run", command: long });
    expect(store.resolve(longId)).toEqual({ kind: "run", command: long });
    expect(store.resolve("rl:k:unknown")).toEqual({ kind: "expired" });
    expect(store.resolve("someone-else:1")).toBeUndefined();
  });

  it("forgets the oldest long commands past its size", () => {
    const small = createButtonStore({ redact, max: 2 });
    const long = (c: string) => `/rl echo ${c.repeat(120)}`;
    const first = small.idFor({ kind: "command", label: "A", command: long("a") });
    small.idFor({ kind: "command", label: "B", command: long("b") });
    small.idFor({ kind: "command", label: "C", command: long("c") });
    expect(small.resolve(first)).toEqual({ kind: "expired" });
  });
});

describe("buildRlCommand", () => {
  it("builds a command Discord accepts, even from more commands and options than it allows", () => {
    expect(validateCommands([buildRlCommand(TEST_COMMANDS)])).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => ({
      ...TEST_COMMANDS[0]!,
      name: `cmd${i}`,
      summary: "S".repeat(300),
    }));
    const built = buildRlCommand(many);
    expect(validateCommands([built])).toEqual([]);
    expect(built.options).toHaveLength(25);
  });
});
