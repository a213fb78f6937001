// The verdict: per-model counts, best model, mean accuracy, and "works" only when something was right and nothing crashed.
import { describe, expect, it } from "vitest";
import { modelStats, summarizeTest } from "../../src/inference/summarize.ts";
import type { ModelOutcome, ModelResult } from "../../src/inference/types.ts";

function model(name: string, outcome: ModelOutcome, corrects: number[], group = 4): ModelResult {
  const steps = corrects.map((c, i) => ({
    step: i + 1,
    completions: group,
    correct: c,
    scores: Array.from({ length: group }, (_, k) => (k < c ? 1 : 0)),
  }));
  return {
    model: name,
    outcome,
    steps_requested: 3,
    ...modelStats(steps),
    steps,
    malformed_lines: 0,
    command: [],
    duration_ms: 1,
  };
}

describe("modelStats", () => {
  it("counts completions, correct, accuracy, steps with a correct answer and the mean score", () => {
    const m = model("a", "ok", [4, 0, 1]);
    expect(m).toMatchObject({
      steps_tested: 3,
      completions: 12,
      correct: 5,
      accuracy: 0.417,
      steps_with_correct: 2,
      mean_score: 0.417,
    });
    expect(modelStats([])).toMatchObject({ completions: 0, accuracy: 0, mean_score: null });
  });
});

describe("summarizeTest", () => {
  it("names the best model and averages accuracy over models that scored something", () => {
    const s = summarizeTest([model("a", "ok", [1, 1, 1]), model("b", "ok", [4, 4, 2]), model("c", "timeout", [])]);
    expect(s).toMatchObject({
      models_tested: 3,
      models_succeeded: 2,
      best_model: "b",
      mean_accuracy: 0.542,
      environment_working: true,
      crashed: [],
      timed_out: ["c"],
    });
  });

  it("does not call an environment working when a model crashed, or when nothing was right", () => {
    expect(summarizeTest([model("a", "ok", [4]), model("b", "crashed", [])])).toMatchObject({
      environment_working: false,
      crashed: ["b"],
    });
    expect(summarizeTest([model("a", "ok", [4]), model("b", "no_output", [])]).environment_working).toBe(false);
    expect(summarizeTest([model("a", "ok", [0, 0]), model("b", "ok", [0])])).toMatchObject({
      environment_working: false,
      best_model: null,
      mean_accuracy: 0,
    });
  });
});
