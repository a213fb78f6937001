// Counts per model (completions, correct, accuracy, steps with a correct answer) and the verdict over all models.
import type { InferenceTestSummary, ModelResult, StepResult } from "./types.ts";

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export type ModelStats = Pick<
  ModelResult,
  "steps_tested" | "completions" | "correct" | "accuracy" | "steps_with_correct" | "mean_score"
>;

export function modelStats(steps: readonly StepResult[]): ModelStats {
  const completions = steps.reduce((n, s) => n + s.completions, 0);
  const correct = steps.reduce((n, s) => n + s.correct, 0);
  const scoreSum = steps.reduce((n, s) => n + s.scores.reduce((a, b) => a + b, 0), 0);
  return {
    steps_tested: steps.length,
    completions,
    correct,
    accuracy: completions ? round3(correct / completions) : 0,
    steps_with_correct: steps.filter((s) => s.correct > 0).length,
    mean_score: completions ? round3(scoreSum / completions) : null,
  };
}

export function summarizeTest(models: readonly ModelResult[]): InferenceTestSummary {
  const scored = models.filter((m) => m.completions > 0);
  const crashed = models.filter((m) => m.outcome === "crashed" || m.outcome === "no_output").map((m) => m.model);
  // The first of the most accurate wins a tie; a model with nothing right is nobody's best.
  const best = scored
    .filter((m) => m.correct > 0)
    .reduce<ModelResult | undefined>((b, m) => (!b || m.accuracy > b.accuracy ? m : b), undefined);
  return {
    models_tested: models.length,
    models_succeeded: models.filter((m) => m.outcome === "ok").length,
    best_model: best?.model ?? null,
    mean_accuracy: scored.length ? round3(scored.reduce((n, m) => n + m.accuracy, 0) / scored.length) : 0,
    environment_working: models.some((m) => m.correct > 0) && crashed.length === 0,
    crashed,
    timed_out: models.filter((m) => m.outcome === "timeout").map((m) => m.model),
  };
}
