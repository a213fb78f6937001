// Measurement: how long the rl-chatops command takes to do almost nothing, whole process, against `node -e 0`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir } from "./cleanup.ts";
import { CLI, runProcess } from "./scan-processes.ts";
import { median, ms, times } from "./stats.ts";

const HELP_GOAL = 2;

export async function measureCliStart(ctx: BenchContext): Promise<BenchRow[]> {
  const reps = ctx.sizes.cliReps;
  const cwd = benchTempDir("cli-start");
  // An empty YAML file, so the caller's own rl-chatops.yaml (if any) plays no part.
  writeFileSync(path.join(cwd, "rl-chatops.yaml"), "");
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, RL_LOG_LEVEL: "silent" };
  const commands: Record<string, () => Promise<number>> = {
    node: async () => (await runProcess(process.execPath, ["-e", "0"], { cwd, env })).wallMs,
    help: async () => (await runProcess(process.execPath, [CLI, "--help"], { cwd, env })).wallMs,
    // No runs in the channel: it answers (exit 1, "No runs in this channel yet") after opening the data folder.
    status: async () => (await runProcess(process.execPath, [CLI, "exec", "/rl status"], { cwd, env, allowExit: [1] })).wallMs,
  };
  const names = Object.keys(commands);
  const runs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  // One of each first (page cache, the data folder's database created), not counted.
  for (const name of names) await commands[name]!();
  for (let rep = 0; rep < reps; rep++) {
    // Rotate who goes first, so a burst of load on the machine hits each alike.
    for (let k = 0; k < names.length; k++) {
      const name = names[(rep + k) % names.length]!;
      runs[name]!.push(await commands[name]!());
    }
    ctx.progress(`  CLI start ${rep + 1}/${reps}: node -e 0 ${ms(runs.node!.at(-1)!)}, --help ${ms(runs.help!.at(-1)!)}, exec "/rl status" ${ms(runs.status!.at(-1)!)}`);
  }
  const node = median(runs.node!);
  const help = median(runs.help!);
  const status = median(runs.status!);
  return [
    {
      id: "cli-help",
      measurement: "CLI start, --help",
      sizes: "whole process",
      ours: ms(help),
      baseline: `${ms(node)} (node -e 0)`,
      ratio: times(help / node),
      goal: `<= ${HELP_GOAL.toFixed(2)}x node -e 0`,
      met: help <= HELP_GOAL * node,
      note:
        "`node bin/rl-chatops.js --help` (bin/ imports dist/cli.js, which prints the usage with nothing else loaded) vs `node -e 0`, each timed from spawn to exit; " +
        `runs rotated, median of ${reps}.`,
      repetitions: reps,
      data: runs,
    },
    {
      id: "cli-exec-status",
      measurement: 'CLI start, exec "/rl status"',
      sizes: "whole process, no bot running",
      ours: ms(status),
      baseline: `${ms(node)} (node -e 0)`,
      ratio: times(status / node),
      goal: "report",
      met: null,
      note:
        '`node bin/rl-chatops.js exec "/rl status"` with no bot on the data folder: it takes the lease, opens the SQLite database, re-attaches to live runs (none), ' +
        `dispatches the command and answers "No runs in this channel yet" (exit 1); no chat platform, discovery or scheduler is loaded. Median of ${reps}.`,
      repetitions: reps,
      data: runs,
    },
  ];
}
