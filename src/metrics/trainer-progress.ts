// The trainer's progress from its log: one reader for every caller, following the log as it grows (every line counts).
import { createLogFollower } from "./follow-log.ts";
import { copyProgress, trainerLogFold, type TrainerProgress } from "./trainer-log.ts";

const followTrainerLog = createLogFollower(trainerLogFold);

export async function readTrainerProgress(logPath: string): Promise<TrainerProgress> {
  return copyProgress((await followTrainerLog(logPath)).progress);
}
