// One-line, human-readable accounts of a model's result and of a test in progress, for replies and progress edits.
import type { InferenceTestResult, ModelResult } from "./types.ts";

const percent = (x: number) => `${(x * 100).toFixed(1).replace(/\.0$/, "")}%`;

export function describeModel(m: ModelResult): string {
  const counts = `${m.correct}/${m.completions} correct (${percent(m.accuracy)}), ${m.steps_with_correct}/${m.steps_tested} steps with a correct answer`;
  switch (m.outcome) {
    case "ok":
      return m.steps_tested
        ? counts
        : `finished but wrote no scored groups${m.malformed_lines ? ` (${m.malformed_lines} unreadable lines)` : ""}`;
    case "timeout":
      return `timed out after ${m.steps_tested}/${m.steps_requested} steps${m.completions ? `; ${counts}` : ""}`;
    case "crashed":
      return `crashed: ${m.error ?? "unknown error"}${m.completions ? `; before that ${counts}` : ""}`;
    case "no_output":
      return `no output: ${m.error ?? "no file"}`;
  }
}

export function progressText(environment: string, done: readonly ModelResult[], total: number): string {
  const lines = done.map((m) => `• ${m.model}: ${describeModel(m)}`);
  return [`Inference test of ${environment}: ${done.length}/${total} models done`, ...lines].join("\n");
}

export function verdictText(r: InferenceTestResult): string {
  const s = r.summary;
  if (s.environment_working) {
    return `${r.environment} works: ${s.best_model ?? "a model"} did best; mean accuracy ${percent(s.mean_accuracy)} over the models that answered.`;
  }
  const why = [
    s.crashed.length ? `crashed or wrote no output for ${s.crashed.join(", ")}` : "",
    r.models.every((m) => m.correct === 0) ? "no model got a single completion right" : "",
  ].filter(Boolean);
  return `${r.environment} does not work yet: ${why.join("; ")}.`;
}
