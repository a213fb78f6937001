// The registry: every /rl subcommand, listed explicitly, in the order help shows them.
import { createDecideCommand } from "./approval/decide-approval.ts";
import audit from "./audit.ts";
import budget from "./budget.ts";
import checkpoints from "./checkpoints.ts";
import compare from "./compare.ts";
import config from "./config.ts";
import digest from "./digest.ts";
import envs from "./envs.ts";
import { createHelpCommand } from "./help.ts";
import keys from "./keys.ts";
import logs from "./logs.ts";
import notify from "./notify.ts";
import reset from "./reset.ts";
import rerun from "./rerun.ts";
import resume from "./resume.ts";
import fork from "./fork.ts";
import results from "./results.ts";
import runs from "./runs.ts";
import samples from "./samples.ts";
import select from "./select.ts";
import set from "./set.ts";
import start from "./start.ts";
import status from "./status.ts";
import stop from "./stop.ts";
import sweep from "./sweep.ts";
import test from "./test.ts";
import type { AnyCommand } from "./types.ts";

export const COMMANDS: readonly AnyCommand[] = [
  createHelpCommand(() => COMMANDS),
  envs,
  select,
  config,
  set,
  reset,
  keys,
  test,
  start,
  rerun,
  resume,
  fork,
  sweep,
  createDecideCommand("approve", () => COMMANDS),
  createDecideCommand("deny", () => COMMANDS),
  status,
  stop,
  results,
  checkpoints,
  samples,
  compare,
  runs,
  logs,
  digest,
  notify,
  budget,
  audit,
];
