// The shapes of an inference test: what running one needs, and its results per step, per model, the summary and the
// whole stored record.
import type { InferenceTestsRepo } from "../../db/inference-tests.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { Redactor } from "../redact.ts";

/** One group the environment wrote: one step of process mode. */
export interface StepResult {
  step: number;
  completions: number;
  correct: number;
  scores: number[];
}

/**
 * How a model's process ended. "crashed": non-zero exit, a signal we did not send, or it could not start;
 * "no_output": exit 0 without a fresh output file of this test; "timeout": we killed it at the time limit.
 */
export type ModelOutcome = "ok" | "crashed" | "no_output" | "timeout";

export interface ModelResult {
  model: string;
  outcome: ModelOutcome;
  steps_requested: number;
  steps_tested: number;
  completions: number;
  correct: number;
  /** correct / completions, 3 decimals; 0 when nothing was scored. */
  accuracy: number;
  steps_with_correct: number;
  mean_score: number | null;
  steps: StepResult[];
  /** Lines of the output file that were not a scored group (not JSON, no numeric scores list). */
  malformed_lines: number;
  exit_code?: number;
  signal?: string;
  error?: string;
  /** The end of the child's stderr, secrets redacted. */
  stderr_tail?: string;
  /** The file the groups were read from (absent when none could be trusted). */
  output_file?: string;
  /** The command line the child ran (never holds the API key: that travels in its environment). */
  command: string[];
  duration_ms: number;
}

export interface InferenceTestSummary {
  models_tested: number;
  /** Models whose process ran to the end (outcome ok). */
  models_succeeded: number;
  best_model: string | null;
  /** Mean accuracy over the models that scored at least one completion. */
  mean_accuracy: number;
  /** At least one model got at least one completion right, and no model crashed. */
  environment_working: boolean;
  /** Models whose process crashed or ended without a usable output file (outcome crashed or no_output). */
  crashed: string[];
  timed_out: string[];
}

export interface InferenceTestResult {
  test_id: string;
  environment: string;
  environment_file: string;
  endpoint: string;
  /** True when the API key was given to the children (false for a local endpoint). */
  api_key_sent: boolean;
  test_config: {
    steps: number;
    group_size: number;
    rollouts_per_model: number;
    total_rollouts: number;
    correct_threshold: number;
    timeout_seconds: number;
    concurrency: number;
  };
  models: ModelResult[];
  summary: InferenceTestSummary;
  output_directory: string;
  started_at: string;
  finished_at: string;
}

/** What running an inference test needs: settings, where results are kept, and the hooks tests use. */
export interface InferenceTestDeps {
  config: Pick<Config, "dataDir" | "trainingRoot" | "python">;
  tests: InferenceTestsRepo;
  log: Logger;
  redact: Redactor;
  now?: () => number;
  /** The environment the children inherit (minus the bot's secrets); default process.env. */
  processEnv?: NodeJS.ProcessEnv;
  newId?: () => string;
  /** Told about each child as it starts (tests read its /proc entries). */
  onSpawn?: (child: { model: string; pid: number; command: string[] }) => void;
  killGraceMs?: number;
}
