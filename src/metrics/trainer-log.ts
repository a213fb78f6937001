// Reads progress from the trainer's stdout lines: step of total, loss, reward mean, step errors, final weights.
import type { LineFold } from "./follow-log.ts";

export interface TrainerProgress {
  /** Steps completed. The trainer numbers steps from 0, so "Step 4 complete" means five are done. */
  step?: number;
  totalSteps?: number;
  loss?: number;
  rewardMean?: number;
  /** Reward mean per completed step, in order. */
  rewardHistory: Array<{ step: number; value: number }>;
  /** The policy's entropy per completed step, where the stack logs it (the watchdog's entropy collapse). */
  entropyHistory?: Array<{ step: number; value: number }>;
  /** The completions' mean length per completed step, where the stack logs it (the watchdog's length drift). */
  lengthHistory?: Array<{ step: number; value: number }>;
  stepErrors: string[];
  completed: boolean;
  finalWeights?: string;
}

const STEP = /^Step (\d+)\/(\d+)\s*$/;
const LOSS = /^Loss: (\S+)/;
const REWARD = /^Reward\/mean: (\S+)/;
const STEP_DONE = /^Step (\d+) complete - Loss: (\S+)/;
const STEP_ERROR = /^Error in step (\d+): ?(.*)$/;
/** Step error lines kept. */
const MAX_STEP_ERRORS = 50;
const WEIGHTS = /^Final weights are available here: (\S+)/;

/** What the lines read so far say, and the step being logged (a reward line belongs to it). */
export interface TrainerLogState {
  progress: TrainerProgress;
  current?: number;
}

/** The trainer's log folded line by line (createLogFollower reads it as it grows). */
export const trainerLogFold: LineFold<TrainerLogState> = {
  initial: () => ({ progress: { rewardHistory: [], stepErrors: [], completed: false } }),
  add: addTrainerLine,
};

export function parseTrainerLog(text: string): TrainerProgress {
  const state = trainerLogFold.initial();
  for (const line of text.split("\n")) addTrainerLine(state, line);
  return state.progress;
}

/** A copy that later lines of the same log do not change. */
export const copyProgress = (progress: TrainerProgress): TrainerProgress => ({
  ...progress,
  rewardHistory: [...progress.rewardHistory],
  ...(progress.entropyHistory ? { entropyHistory: [...progress.entropyHistory] } : {}),
  ...(progress.lengthHistory ? { lengthHistory: [...progress.lengthHistory] } : {}),
  stepErrors: [...progress.stepErrors],
});

function addTrainerLine(state: TrainerLogState, raw: string): void {
  const { progress } = state;
  const line = raw.trim();
  let m: RegExpMatchArray | null;
  if ((m = line.match(STEP))) {
    state.current = Number(m[1]);
    progress.totalSteps = Number(m[2]);
  } else if ((m = line.match(STEP_DONE))) {
    progress.step = Number(m[1]) + 1;
    const loss = Number(m[2]);
    if (Number.isFinite(loss)) progress.loss = loss;
  } else if ((m = line.match(LOSS))) {
    const loss = Number(m[1]);
    if (Number.isFinite(loss)) progress.loss = loss;
  } else if ((m = line.match(REWARD))) {
    const value = Number(m[1]);
    if (Number.isFinite(value)) {
      progress.rewardMean = value;
      if (state.current !== undefined) progress.rewardHistory.push({ step: state.current, value });
    }
  } else if ((m = line.match(STEP_ERROR))) {
    progress.stepErrors.push(line);
    // A log full of them keeps the latest: a verdict needs one, a report shows three.
    if (progress.stepErrors.length > MAX_STEP_ERRORS) progress.stepErrors.shift();
  } else if (line === "Training complete!") {
    progress.completed = true;
  } else if ((m = line.match(WEIGHTS))) {
    progress.finalWeights = m[1];
  }
}
