// Measurement: how long the rl-chatops command takes to do almost nothing, whole process, against `node -e 0`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir } from "./cleanup.ts";
import { rotatedRuns } from "./rotated-runs.ts";
import { CLI, measuredEnv, runProcess } from "./scan-processes.ts";
import { median, ms, times } from "./stats.ts";

const HELP_GOAL = 2;
/** exec against a running owner is a thin client: the socket client and the printer. */
const EXEC_GOAL = 2;

export async function measureCliStart(ctx: BenchContext): Promise<BenchRow[]> {
  const reps = ctx.sizes.cliReps;
  const cwd = benchTempDir("cli-start");
  // An empty YAML file, so the caller's own rl-chatops.yaml (if any) plays no part.
  writeFileSync(path.join(cwd, "rl-chatops.yaml"), "");
  const env = measuredEnv({ RL_LOG_LEVEL: "silent" });
  const commands: Record<string, () => Promise<number>> = {
    node: async () => (await runProcess(process.execPath, ["-e", "0"], { cwd, env })).wallMs,
    // The same in the environment the bench was started in, e.g. with NODE_EXTRA_CA_CERTS, which makes Node read
    // its root certificates and that file's before running any code.
    nodeCaller: async () => (await runProcess(process.execPath, ["-e", "0"], { cwd, env: process.env })).wallMs,
    help: async () => (await runProcess(process.execPath, [CLI, "--help"], { cwd, env })).wallMs,
    // No runs in the channel: it answers (exit 1, "No runs in this channel yet") after opening the data folder.
    status: async () =>
      (await runProcess(process.execPath, [CLI, "exec", "/rl status"], { cwd, env, allowExit: [1] })).wallMs,
  };
  const runs = await rotatedRuns(commands, reps, (runs, rep) =>
    ctx.progress(
      `  CLI start ${rep + 1}/${reps}: node -e 0 ${ms(runs.node!.at(-1)!)} (in the bench's own environment ${ms(runs.nodeCaller!.at(-1)!)}), --help ${ms(runs.help!.at(-1)!)}, exec "/rl status" ${ms(runs.status!.at(-1)!)}`,
    ),
  );
  // The first exec started a background supervisor on the folder: it goes now, not RL_IDLE_EXIT_MINUTES later.
  await runProcess(process.execPath, [CLI, "stop"], { cwd, env });
  const node = median(runs.node!);
  const help = median(runs.help!);
  const status = median(runs.status!);
  const nodeCaller = median(runs.nodeCaller!);
  // Names only: a value may be a secret.
  const startupVariables = Object.keys(process.env)
    .filter((name) => /^(NODE_|UV_|OPENSSL_|SSL_CERT_)/.test(name))
    .sort();
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
        "`node bin/rl-chatops.js --help` (bin/rl-chatops.js, CommonJS, requires dist/exec-command.cjs, the smallest program of the build, which prints the usage; no ES module is loaded) vs `node -e 0`, each timed from spawn to exit; " +
        `runs rotated, median of ${reps}.`,
      repetitions: reps,
      data: runs,
    },
    {
      id: "cli-exec-status",
      measurement: 'CLI start, exec "/rl status"',
      sizes: "whole process, a client of the background supervisor",
      ours: ms(status),
      baseline: `${ms(node)} (node -e 0)`,
      ratio: times(status / node),
      goal: `<= ${EXEC_GOAL.toFixed(2)}x node -e 0`,
      met: status <= EXEC_GOAL * node,
      note:
        '`node bin/rl-chatops.js exec "/rl status"` with no bot on the data folder: the first, uncounted, call starts the background supervisor; each measured one reads its pid file, ' +
        `hands it the command over its socket and prints its answer "No runs in this channel yet" (exit 1), loading two files of the package, bin/rl-chatops.js and dist/exec-command.cjs (CommonJS, so Node's ES module loader is never started): none of the services and not the settings parser (the data folder is read from the environment or the settings file's text). Runs rotated with the rest of this section; median of ${reps}.`,
      repetitions: reps,
      data: runs,
    },
    {
      id: "node-start-caller-env",
      measurement: "Node start-up, the bench's own environment",
      sizes: "node -e 0",
      ours: ms(nodeCaller),
      baseline: `${ms(node)} (PATH, HOME, TMPDIR only)`,
      ratio: times(nodeCaller / node),
      goal: "report",
      met: null,
      note:
        "Every timed process gets PATH, HOME and TMPDIR only (bench/scan-processes.ts, `measuredEnv`), so these figures are about the programs, not the shell they were started from. " +
        `This row is what the shell adds to any Node process on this machine: \`node -e 0\` in the environment \`npm run bench\` was started with, against the one the other rows use. ` +
        `Variables set there that change how Node or OpenSSL start: ${startupVariables.length ? startupVariables.join(", ") : "none"}. Runs rotated with the rest of this section; median of ${reps}.`,
      repetitions: reps,
      data: { caller: runs.nodeCaller, measured: runs.node, startupVariables },
    },
  ];
}
