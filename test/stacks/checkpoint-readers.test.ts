// Each stack's checkpoint reader on the records it meets: the trainer log of tinker-atropos, checkpoints.jsonl of the cookbook.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseTrainerCheckpoints } from "../../src/stacks/atropos-tinker/read-trainer-checkpoints.ts";
import { readRecipeCheckpoints } from "../../src/stacks/tinker-cookbook/read-recipe-progress.ts";
import { tempDir } from "../helpers/test-services.ts";

const step = (s: number, n: number) =>
  [
    `Step ${s}/${n}`,
    "Running optimizer step...",
    "Loss: 0.5",
    "Saving checkpoint and updating sampling client...",
    `Sampling client updated: tinker://m-1/sampler_weights/step_${s + 1}`,
    "Reward/mean: 0.2500",
    `Step ${s} complete - Loss: 0.5`,
  ].join("\n");

describe("atropos-tinker checkpoints from the trainer log", () => {
  it("takes each step's saved sampler weights at the steps done, and the final weights at the last step done", () => {
    const log = [step(0, 5), step(1, 5), "Step 2/5", "Error in step 2: boom", "Training complete!"];
    log.push("Final weights are available here: tinker://m-1/sampler_weights/final");
    expect(parseTrainerCheckpoints(log.join("\n"))).toEqual([
      {
        name: "step_1",
        step: 1,
        path: "tinker://m-1/sampler_weights/step_1",
        samplerPath: "tinker://m-1/sampler_weights/step_1",
      },
      {
        name: "step_2",
        step: 2,
        path: "tinker://m-1/sampler_weights/step_2",
        samplerPath: "tinker://m-1/sampler_weights/step_2",
      },
      {
        name: "final",
        step: 2,
        path: "tinker://m-1/sampler_weights/final",
        samplerPath: "tinker://m-1/sampler_weights/final",
        final: true,
      },
    ]);
  });

  it("finds none in a log that has not saved yet", () => {
    expect(parseTrainerCheckpoints("Setting up Tinker-Atropos Trainer...\nStep 0/5\n")).toEqual([]);
  });
});

describe("tinker-cookbook checkpoints from checkpoints.jsonl", () => {
  it("keeps records with weights and a progress counter, marks the final one and times only the newest", async () => {
    const dir = path.join(tempDir(), "run");
    mkdirSync(dir, { recursive: true });
    const lines = [
      {
        name: "000000",
        batch: 0,
        state_path: "tinker://r/weights/000000",
        sampler_path: "tinker://r/sampler_weights/000000",
      },
      { name: "partial", batch: 3 },
      { name: "000005", step: 5, sampler_path: "tinker://r/sampler_weights/000005", rolling: true },
      { name: "end", batch: 8, final: true, state_path: "tinker://r/weights/end" },
    ];
    writeFileSync(path.join(dir, "checkpoints.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n{half");
    const found = await readRecipeCheckpoints(dir);
    expect(found.map((c) => [c.name, c.step, c.path, c.samplerPath, c.final])).toEqual([
      ["000000", 0, "tinker://r/weights/000000", "tinker://r/sampler_weights/000000", undefined],
      ["000005", 5, "tinker://r/sampler_weights/000005", "tinker://r/sampler_weights/000005", undefined],
      ["end", 8, "tinker://r/weights/end", undefined, true],
    ]);
    expect(found.map((c) => c.time === undefined)).toEqual([true, true, false]);
    expect(new Date(found[2]!.time!).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("finds none where the run has written no checkpoints.jsonl", async () => {
    expect(await readRecipeCheckpoints(path.join(tempDir(), "absent"))).toEqual([]);
  });
});
