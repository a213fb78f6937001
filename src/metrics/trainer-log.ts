// Reads progress from the trainer's stdout lines: step of total, loss, reward mean, step errors, final weights.
export interface TrainerProgress {
  /** Steps completed. The trainer numbers steps from 0, so "Step 4 complete" means five are done. */
  step?: number;
  totalSteps?: number;
  loss?: number;
  rewardMean?: number;
  /** Reward mean per completed step, in order. */
  rewardHistory: Array<{ step: number; value: number }>;
  stepErrors: string[];
  completed: boolean;
  finalWeights?: string;
}

const STEP = /^Step (\d+)\/(\d+)\s*$/;
const LOSS = /^Loss: (\S+)/;
const REWARD = /^Reward\/mean: (\S+)/;
const STEP_DONE = /^Step (\d+) complete - Loss: (\S+)/;
const STEP_ERROR = /^Error in step (\d+): ?(.*)$/;
const WEIGHTS = /^Final weights are available here: (\S+)/;

export function parseTrainerLog(text: string): TrainerProgress {
  const progress: TrainerProgress = { rewardHistory: [], stepErrors: [], completed: false };
  let current: number | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    let m: RegExpMatchArray | null;
    if ((m = line.match(STEP))) {
      current = Number(m[1]);
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
        if (current !== undefined) progress.rewardHistory.push({ step: current, value });
      }
    } else if ((m = line.match(STEP_ERROR))) {
      progress.stepErrors.push(line);
    } else if (line === "Training complete!") {
      progress.completed = true;
    } else if ((m = line.match(WEIGHTS))) {
      progress.finalWeights = m[1];
    }
  }
  return progress;
}
