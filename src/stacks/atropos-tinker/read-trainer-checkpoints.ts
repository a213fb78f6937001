// An atropos-tinker run's checkpoints, as its trainer logs them: the sampler weights it saves after each step and
// the final weights it names at the end.
import { createLogFollower, type LineFold } from "../../metrics/follow-log.ts";
import type { Checkpoint } from "../training-stack.ts";

const STEP = /^Step (\d+)\/\d+\s*$/;
const STEP_DONE = /^Step (\d+) complete\b/;
// tinker-atropos saves the step's weights for sampling (save_weights_for_sampler(name=f"step_{step+1}")) and logs it.
const SAVED = /^Sampling client updated: (\S+)/;
const FINAL = /^Final weights are available here: (\S+)/;

const nameOf = (weights: string) => weights.replace(/\/+$/, "").split("/").at(-1) || weights;

interface CheckpointLogState {
  out: Checkpoint[];
  current?: number;
  done: number;
}

const checkpointFold: LineFold<CheckpointLogState> = {
  initial: () => ({ out: [], done: 0 }),
  add(state, raw) {
    const line = raw.trim();
    let m: RegExpMatchArray | null;
    if ((m = line.match(STEP))) state.current = Number(m[1]);
    else if ((m = line.match(STEP_DONE))) state.done = Number(m[1]) + 1;
    else if ((m = line.match(SAVED))) {
      const weights = m[1]!;
      // Saved at the end of step `current` (numbered from 0): that many steps plus one are done.
      const fromName = /step_(\d+)$/.exec(weights)?.[1];
      const step =
        state.current !== undefined ? state.current + 1 : fromName !== undefined ? Number(fromName) : state.done;
      state.out.push({ name: nameOf(weights), step, path: weights, samplerPath: weights });
    } else if ((m = line.match(FINAL))) {
      const weights = m[1]!;
      state.out.push({ name: nameOf(weights), step: state.done, path: weights, samplerPath: weights, final: true });
    }
  },
};

export function parseTrainerCheckpoints(text: string): Checkpoint[] {
  const state = checkpointFold.initial();
  let start = 0;
  for (const line of text.split("\n")) {
    checkpointFold.add(state, line, start);
    start += Buffer.byteLength(line) + 1;
  }
  return state.out;
}

const followCheckpoints = createLogFollower(checkpointFold);

export async function readTrainerCheckpoints(logPath: string): Promise<Checkpoint[]> {
  return (await followCheckpoints(logPath)).out.map((checkpoint) => ({ ...checkpoint }));
}
