// An atropos-tinker run's checkpoints, as its trainer logs them: the sampler weights it saves after each step and
// the final weights it names at the end.
import { readTailBytes } from "../../metrics/log-tail.ts";
import { TRAINER_LOG_TAIL_BYTES } from "../../metrics/trainer-progress.ts";
import type { Checkpoint } from "../training-stack.ts";

const STEP = /^Step (\d+)\/\d+\s*$/;
const STEP_DONE = /^Step (\d+) complete\b/;
// tinker-atropos saves the step's weights for sampling (save_weights_for_sampler(name=f"step_{step+1}")) and logs it.
const SAVED = /^Sampling client updated: (\S+)/;
const FINAL = /^Final weights are available here: (\S+)/;

const nameOf = (weights: string) => weights.replace(/\/+$/, "").split("/").at(-1) || weights;

export function parseTrainerCheckpoints(text: string): Checkpoint[] {
  const out: Checkpoint[] = [];
  let current: number | undefined;
  let done = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    let m: RegExpMatchArray | null;
    if ((m = line.match(STEP))) current = Number(m[1]);
    else if ((m = line.match(STEP_DONE))) done = Number(m[1]) + 1;
    else if ((m = line.match(SAVED))) {
      const weights = m[1]!;
      // Saved at the end of step `current` (numbered from 0): that many steps plus one are done.
      const fromName = /step_(\d+)$/.exec(weights)?.[1];
      const step = current !== undefined ? current + 1 : fromName !== undefined ? Number(fromName) : done;
      out.push({ name: nameOf(weights), step, path: weights, samplerPath: weights });
    } else if ((m = line.match(FINAL))) {
      const weights = m[1]!;
      out.push({ name: nameOf(weights), step: done, path: weights, samplerPath: weights, final: true });
    }
  }
  return out;
}

export async function readTrainerCheckpoints(logPath: string): Promise<Checkpoint[]> {
  return parseTrainerCheckpoints(await readTailBytes(logPath, TRAINER_LOG_TAIL_BYTES));
}
