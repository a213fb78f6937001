import { describe, expect, it } from "vitest";
import { parseTrainerLog } from "../../src/metrics/trainer-log.ts";

const LOG = `Learning Rate: 4e-05
Step 0/3
Loss: 0.91
Reward/mean: 0.25
Step 0 complete - Loss: 0.91
Step 1/3
Loss: 0.72
Reward/mean: 0.5
Step 1 complete - Loss: 0.72
Step 2/3
Error in step 2: connection reset by peer
Training complete!
Final weights are available here: tinker://abc/final
`;

describe("parseTrainerLog", () => {
  it("reads steps completed, totals, metrics and their history from the real trainer's lines", () => {
    const p = parseTrainerLog(LOG);
    expect(p).toMatchObject({
      step: 2,
      totalSteps: 3,
      loss: 0.72,
      rewardMean: 0.5,
      completed: true,
      finalWeights: "tinker://abc/final",
    });
    expect(p.rewardHistory).toEqual([
      { step: 0, value: 0.25 },
      { step: 1, value: 0.5 },
    ]);
    expect(p.stepErrors).toEqual(["Error in step 2: connection reset by peer"]);
  });

  it("ignores garbage and non-numbers without failing", () => {
    const p = parseTrainerLog("Reward/mean: nan\nStep x/y\n\u0000\nLoss: inf\n");
    expect(p.rewardMean).toBeUndefined();
    expect(p.step).toBeUndefined();
    expect(p.completed).toBe(false);
  });
});
