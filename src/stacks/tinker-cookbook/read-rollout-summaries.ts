// The samples of a cookbook run: the per-rollout records the RL loop exports each iteration
// (<log_path>/iteration_NNNNNN/train_rollout_summaries.jsonl, schema 1), read one step's file at a time.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { cutTexts, readStepSamples, scoreOf, type SampleTexts } from "../pick-samples.ts";
import type { SampleQuery, StepSamples } from "../training-stack.ts";

const ITERATION_DIR = /^iteration_(\d+)$/;
const ROLLOUTS_FILE = "train_rollout_summaries.jsonl";
/** Log keys an Env uses for what it asked and what the model answered, looked for in this order. */
const PROMPT_KEYS = ["prompt", "question", "problem", "observation", "input"];
const COMPLETION_KEYS = ["response", "completion", "answer", "output", "guess", "transcript", "text"];

interface RolloutRecord {
  group_idx?: unknown;
  traj_idx?: unknown;
  total_reward?: unknown;
  steps?: Array<{ logs?: Record<string, unknown>; ob_len?: unknown; ac_len?: unknown }>;
}

/** What the Env logged of a rollout: its prompt and answer where it names them, else every log as `key: value`. */
export function recordTexts(record: RolloutRecord): SampleTexts {
  const steps = Array.isArray(record.steps) ? record.steps : [];
  const prompts: string[] = [];
  const completions: string[] = [];
  for (const [turn, step] of steps.entries()) {
    const logs = step && typeof step.logs === "object" && step.logs ? step.logs : {};
    const promptKey = PROMPT_KEYS.find((k) => k in logs);
    const completionKey = COMPLETION_KEYS.find((k) => k in logs);
    const rest = Object.entries(logs).filter(([k]) => k !== promptKey && k !== completionKey);
    const label = steps.length > 1 ? `turn ${turn + 1}: ` : "";
    if (promptKey) prompts.push(`${label}${String(logs[promptKey])}`);
    const answer = [
      ...(completionKey ? [String(logs[completionKey])] : []),
      ...rest.map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`),
    ].join("\n");
    if (answer) completions.push(`${label}${answer}`);
  }
  if (prompts.length === 0 && completions.length === 0) {
    const tokens = steps.map((s) => `${String(s.ob_len)} prompt and ${String(s.ac_len)} completion tokens`).join(", ");
    return { prompt: "", completion: `(no text: the recipe's environment logs none; ${tokens || "no steps"})` };
  }
  return { prompt: prompts.join("\n"), completion: completions.join("\n") };
}

/** The iterations with a rollouts file, in order. */
async function listIterations(logDir: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(logDir);
  } catch {
    return [];
  }
  const steps = names.flatMap((n) => {
    const m = ITERATION_DIR.exec(n);
    return m ? [Number(m[1])] : [];
  });
  return steps.sort((a, b) => a - b);
}

const iterationFile = (logDir: string, step: number) =>
  path.join(logDir, `iteration_${String(step).padStart(6, "0")}`, ROLLOUTS_FILE);

export async function readRolloutSummaries(logDir: string, query: SampleQuery): Promise<StepSamples | undefined> {
  return readStepSamples(
    await listIterations(logDir),
    query,
    (step) => [iterationFile(logDir, step)],
    (line) => {
      let record: RolloutRecord | undefined;
      try {
        record = line === undefined ? undefined : (JSON.parse(line) as RolloutRecord);
      } catch {
        record = undefined;
      }
      const score = scoreOf(record?.total_reward);
      if (!record || score === undefined) return undefined;
      const index = typeof record.traj_idx === "number" ? record.traj_idx : undefined;
      return { group: record.group_idx, score, texts: cutTexts(recordTexts(record)), index };
    },
  );
}
