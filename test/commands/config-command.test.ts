// /rl select, /rl config and /rl set over a folder shaped like the public Atropos environments, through the dispatcher.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { tempDir } from "../helpers/test-services.ts";

const SHAPES = fileURLToPath(new URL("../fixtures/atropos-shapes/", import.meta.url));

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

function services(): Services {
  const s = createServices(
    loadConfig(
      { RL_LOG_LEVEL: "silent", RL_OPERATORS: "slack:U1", RL_ENVIRONMENTS_DIR: SHAPES, RL_SCAN_RECURSIVE: "true" },
      tempDir(),
    ),
  );
  opened.push(s);
  return s;
}

const ctx = (s: Services): CommandContext => ({
  channel: { platform: "slack", workspace: "T1", channel: "C1" },
  user: { id: "U1" },
  via: "slash",
  services: s,
});

async function run(s: Services, text: string) {
  return (await dispatch({ text }, ctx(s))).reply;
}

describe("/rl config", () => {
  it("shows a default only known at start as its source text, never as none", async () => {
    const s = services();
    const selected = await run(s, "/rl select paths");
    expect(selected.error, JSON.stringify(selected)).toBeUndefined();
    const fields = (await run(s, "/rl config")).fields ?? [];
    const valueOf = (name: string) => fields.find((f) => f.label.startsWith(`${name} `))?.value ?? "";
    expect(valueOf("dataset_path")).toContain(
      'set when the environment starts: `os.path.join(DATA_ROOT, "data.jsonl")`',
    );
    expect(valueOf("wandb_name")).toContain("set when the environment starts: `cls.name`");
    expect(valueOf("dataset_path")).not.toMatch(/^none/);
    const one = await run(s, "/rl config dataset_path");
    expect(one.fields).toContainEqual({
      label: "Default",
      value: '`os.path.join(DATA_ROOT, "data.jsonl")` (set when the environment starts)',
    });
  });
});

describe("/rl select", () => {
  it("picks any environment by its path relative to the folder, also one whose name another file keeps", async () => {
    const s = services();
    expect((await run(s, "/rl select quiz")).text).toContain("The canonical quiz.");
    expect((await run(s, "/rl select community/copycat/copycat_server.py")).text).toContain(
      "The community variant of the quiz.",
    );
    expect((await run(s, "/rl config")).title).toBe("Config of community/copycat/copycat_server.py");
    expect((await run(s, "/rl select ./quiz_server.py")).title).toBe("Selected quiz");
  });
});
