// A cookbook run's progress as its log folder holds it after a resume: the last record of a step counts.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRecipeProgress } from "../../../src/stacks/tinker-cookbook/read-recipe-progress.ts";
import { tempDir } from "../../helpers/test-services.ts";

const line = (o: object) => `${JSON.stringify(o)}\n`;

describe("a cookbook run's progress", () => {
  it("keeps the last record of each step, skips evaluation records and a half-written line, and finds the final weights", async () => {
    const dir = path.join(tempDir("rl-recipe-progress-"), "run");
    mkdirSync(dir);
    const step = (i: number, reward: number, total = 6) =>
      line({ step: i, "env/all/reward/total": reward, "progress/done_frac": (i + 1) / total, "optim/lr": 1e-5 });
    writeFileSync(
      path.join(dir, "metrics.jsonl"),
      [
        step(0, 0.1),
        step(1, 0.2),
        step(2, 0.9), // logged, then the run was killed before its next checkpoint
        step(2, 0.3), // the resumed run logs step 2 again
        line({ step: 2, "test/env/all/reward/total": 0.5 }),
        step(3, 0.4),
        '{"step": 4, "env/all/rew',
      ].join(""),
    );
    writeFileSync(
      path.join(dir, "checkpoints.jsonl"),
      line({ name: "000002", batch: 2, state_path: "tinker://a:train:0/weights/000002" }) +
        line({
          name: "final",
          batch: 6,
          state_path: "tinker://a/weights/final",
          sampler_path: "tinker://a/sampler_weights/final",
        }),
    );
    const progress = await readRecipeProgress(dir);
    expect(progress.rewardHistory).toEqual([
      { step: 1, value: 0.1 },
      { step: 2, value: 0.2 },
      { step: 3, value: 0.3 },
      { step: 4, value: 0.4 },
    ]);
    expect(progress).toMatchObject({ step: 4, rewardMean: 0.4, totalSteps: 6, completed: true });
    expect(progress.finalWeights).toBe("tinker://a/sampler_weights/final");
    // With max_steps known, it wins over the estimate from done_frac.
    expect((await readRecipeProgress(dir, 5)).totalSteps).toBe(5);
  });

  it("is not complete before the final checkpoint", async () => {
    const dir = tempDir("rl-recipe-progress-");
    writeFileSync(
      path.join(dir, "checkpoints.jsonl"),
      line({ name: "000010", batch: 10, state_path: "tinker://a/w/10" }),
    );
    const progress = await readRecipeProgress(dir);
    expect(progress.completed).toBe(false);
    expect(progress.finalWeights).toBeUndefined();
  });
});
