// The trainer's progress from its log: one reader with one size policy for every caller.
import { readTailBytes } from "./log-tail.ts";
import { parseTrainerLog, type TrainerProgress } from "./trainer-log.ts";

/** The trainer prints a few short lines per step: 4 MiB holds the whole history of any realistic run. */
export const TRAINER_LOG_TAIL_BYTES = 4 * 1024 * 1024;

export async function readTrainerProgress(logPath: string): Promise<TrainerProgress> {
  return parseTrainerLog(await readTailBytes(logPath, TRAINER_LOG_TAIL_BYTES));
}
