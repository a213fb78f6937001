// /rl select, /rl config and /rl set over a folder shaped like the public Atropos environments, through the dispatcher.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { runSlash } from "../helpers/slash-dispatch.ts";
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

const run = runSlash;

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
    // The run YAML names every run {environment}-{run id}: that, not the class's `cls.name`, is what a run gets.
    expect(valueOf("wandb_name")).toContain("paths-{run id} (set by the bot for each run)");
    expect(valueOf("dataset_path")).not.toMatch(/^none/);
    const one = await run(s, "/rl config dataset_path");
    expect(one.fields).toContainEqual({
      label: "Default",
      value: '`os.path.join(DATA_ROOT, "data.jsonl")` (set when the environment starts)',
    });
  });
});

describe("WandB names as the run gets them", () => {
  it("/rl config, /rl set and /rl reset show the name the bot writes into every run, and a name set here instead", async () => {
    const s = services();
    await run(s, "/rl select paths");
    const current = async (name: string) =>
      (await run(s, `/rl config ${name}`)).fields?.find((f) => f.label === "Current")?.value;
    expect(await current("wandb_name")).toBe("paths-{run id} (set by the bot for each run)");
    expect(await current("tinker.wandb_run_name")).toBe("paths-{run id} (set by the bot for each run)");
    expect(await current("tinker.wandb_group")).toBe("paths-{run id} (set by the bot for each run)");
    expect(await current("tinker.wandb_project")).toBe("atropos-tinker (set by the bot for each run)");
    const set = await run(s, "/rl set wandb_name mine");
    expect(JSON.stringify(set)).toContain("paths-{run id}");
    expect(await current("wandb_name")).toBe("mine");
    const reset = await run(s, "/rl reset wandb_name");
    expect(JSON.stringify(reset)).toContain("paths-{run id}");
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
