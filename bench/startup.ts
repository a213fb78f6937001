// Measurement: `/rl start` to "running" on the demo stack and on the cookbook miniature, and a SIGKILLed trainer to
// "failed" plus its queued notice.
import { findCommand } from "../src/process/find-command.ts";
import type { Services } from "../src/services.ts";
import { startDemo } from "../test/helpers/demo-stack.ts";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir, onCleanup } from "./cleanup.ts";
import { killLeftOver, stopRunsAndClose } from "./close-bench-services.ts";
import { COOKBOOK_RECIPE, startCookbookRun, type CookbookStart } from "./cookbook-startup.ts";
import { median, ms, times } from "./stats.ts";

const CHANNEL = { platform: "slack", workspace: "TBENCH", channel: "CSTART" };
const SEED_START_MS = 135_000;
const SEED_POLL_MS = 30_000;
const DETECT_TIMEOUT_MS = 30_000;

interface Rep {
  startMs: number;
  /** Resolving the training Python to its interpreter, as the bot does once at its start (before the start's clock). */
  resolveMs: number;
  /** When each component was reported ready, from the start's beginning (the start's own progress lines). */
  readyAtMs: Record<string, number>;
  /** SIGKILL to the run's row saying "failed". */
  failedMs: number;
  /** SIGKILL to the failed notice being in the outbox. */
  noticeMs: number;
  /** The run's processes still alive once the services were closed (should be none). */
  leftOver: number;
}

const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

function hasFailedNotice(services: Services, runId: string): boolean {
  const row = services.db.prepare("SELECT 1 FROM outbox WHERE dedupe_key = ?").get(`notice:${runId}:failed`);
  return row !== undefined;
}

/** Where PATH finds python3 (a pyenv shim on a machine with pyenv): RL_PYTHON set to it is spawned as given. */
function python3AsFound(): string {
  const found = findCommand("python3", process.cwd(), process.env.PATH);
  if (!found.found) throw new Error("python3 is not on PATH");
  return found.path;
}

/** One start on the demo stack; with `python`, RL_PYTHON set to that path (spawned as given, not resolved). */
async function oneRun(rep: number, python?: string): Promise<Rep> {
  const env = python ? { RL_PYTHON: python } : undefined;
  const stack = await startDemo({
    cwd: benchTempDir(`demo${rep}${python ? "-as-found" : ""}`),
    totalSteps: 400,
    stepSeconds: 0.1,
    env,
  });
  const { services } = stack;
  const close = onCleanup(() => stopRunsAndClose(services));
  await services.env.selectEnvironment(CHANNEL, "parity");
  const r0 = performance.now();
  await services.manager.warmUp();
  const resolveMs = performance.now() - r0;
  const readyAtMs: Record<string, number> = {};
  const t0 = performance.now();
  const run = await services.manager.start({
    channel: CHANNEL,
    userId: "bench",
    progress: async (text) => {
      const component = /^(\S+) is ready$/.exec(text)?.[1];
      if (component) readyAtMs[component] = performance.now() - t0;
    },
  });
  const startMs = performance.now() - t0;
  if (run.status !== "running") throw new Error(`the demo run did not start: ${run.status} ${run.error ?? ""}`);

  const trainer = services.processes.list(run.id).find((p) => p.component === "trainer");
  if (!trainer?.pid) throw new Error("no trainer process recorded");
  let failedMs = Number.NaN;
  let noticeMs = Number.NaN;
  const k0 = performance.now();
  process.kill(trainer.pid, "SIGKILL");
  // A 2 ms poll of what a user would see: the run's row, and the notice waiting in the outbox.
  while (performance.now() - k0 < DETECT_TIMEOUT_MS && (Number.isNaN(failedMs) || Number.isNaN(noticeMs))) {
    if (Number.isNaN(failedMs) && services.runs.get(run.id)?.status === "failed") failedMs = performance.now() - k0;
    if (Number.isNaN(noticeMs) && hasFailedNotice(services, run.id)) noticeMs = performance.now() - k0;
    await sleep(2);
  }
  await services.manager.settled();
  const runPids = services.processes.list(run.id).map((p) => p.pid);
  await close();
  const leftOver = killLeftOver(runPids);
  return { startMs, resolveMs, readyAtMs, failedMs, noticeMs, leftOver };
}

/** Each component's share of the start: from the previous one ready (the first: from the start's beginning) to it ready. */
function stepsOf(rep: Rep): Array<[string, number]> {
  let previous = 0;
  const steps: Array<[string, number]> = [];
  for (const [component, at] of Object.entries(rep.readyAtMs)) {
    steps.push([component, at - previous]);
    previous = at;
  }
  steps.push(["then running", rep.startMs - previous]);
  return steps;
}

const describeSteps = (rep: Rep) =>
  stepsOf(rep)
    .map(([step, took]) => `${step} ${ms(took)}`)
    .join(", ");

/** Each step's median over `reps`. */
function medianOf(reps: Rep[]): Rep {
  return {
    ...reps[0]!,
    startMs: median(reps.map((r) => r.startMs)),
    readyAtMs: Object.fromEntries(
      Object.keys(reps[0]?.readyAtMs ?? {}).map((c) => [c, median(reps.map((r) => r.readyAtMs[c] ?? Number.NaN))]),
    ),
  };
}

export async function measureStartup(ctx: BenchContext): Promise<BenchRow[]> {
  const { sizes } = ctx;
  const reps: Rep[] = [];
  const asFoundReps: Rep[] = [];
  const cookbook: CookbookStart[] = [];
  const python3 = python3AsFound();
  for (let rep = 0; rep < sizes.startupReps; rep++) {
    // The cookbook's run and the start with python3 as PATH finds it interleaved with the demo stack's, each first in turn.
    if (rep % 2 === 1) {
      cookbook.push(await startCookbookRun(rep));
      asFoundReps.push(await oneRun(rep, python3));
    }
    reps.push(await oneRun(rep));
    if (rep % 2 === 0) {
      cookbook.push(await startCookbookRun(rep));
      asFoundReps.push(await oneRun(rep, python3));
    }
    const r = reps.at(-1)!;
    ctx.progress(
      `  start-up ${rep + 1}/${sizes.startupReps}: running after ${ms(r.startMs)} (${describeSteps(r)}; python3 resolved in ${ms(r.resolveMs)} before); SIGKILL -> failed ${ms(r.failedMs)}, notice queued ${ms(r.noticeMs)}; cookbook ${COOKBOOK_RECIPE} running after ${ms(cookbook.at(-1)!.startMs)}; ${python3} as given: running after ${ms(asFoundReps.at(-1)!.startMs)} (${describeSteps(asFoundReps.at(-1)!)})`,
    );
  }
  const asFoundMs = median(asFoundReps.map((r) => r.startMs));
  const cookbookMs = median(cookbook.map((c) => c.startMs));
  const startMs = median(reps.map((r) => r.startMs));
  const detectMs = median(reps.map((r) => Math.max(r.failedMs, r.noticeMs)));
  const medianSteps = medianOf(reps);
  return [
    {
      id: "startup",
      measurement: "Start-up to running",
      sizes: "demo stack (api + trainer + env)",
      ours: `${ms(startMs)} (${describeSteps(medianSteps)})`,
      baseline: "135 s (seed's fixed sleeps)",
      ratio: `${times(SEED_START_MS / startMs)} faster`,
      goal: "< 1 s",
      met: startMs < 1000,
      note:
        "services.manager.start() on the bundled demo stack on free ports (test/helpers/demo-stack.ts; environment parity) until it resolves with the run " +
        '"running": three processes spawned in turn, each waited for by readiness probes polled every 20 ms (the API and the trainer: they answer HTTP; the environment: ' +
        "its first group shows at the API's /status, or it stayed alive 2 s). In brackets each " +
        "step's median, from the previous component ready to this one ready (the first from the start's beginning: plans, port check, spawn, probes). " +
        "python3 is resolved to its interpreter before the clock starts, as a bot does once when it starts (services.start()); the next row is the same start spawning python3 as PATH finds it. " +
        `The seed sleeps 5 + 30 + 90 + 10 s whatever happens. Median of ${sizes.startupReps}.`,
      repetitions: sizes.startupReps,
      data: { reps },
    },
    {
      id: "startup-python-as-found",
      measurement: "Start-up to running, python3 as PATH finds it",
      sizes: "demo stack (api + trainer + env)",
      ours: `${ms(asFoundMs)} (${describeSteps(medianOf(asFoundReps))})`,
      baseline: `${ms(startMs)} (resolved, row above)`,
      ratio: times(asFoundMs / startMs),
      goal: "report",
      met: null,
      note:
        `The row above's start with RL_PYTHON=${python3} (where PATH finds python3), which the bot spawns as given, as it spawned every bare python3 before ` +
        `it resolved the interpreter: each of the three processes then starts through whatever that is (a pyenv, asdf or conda shim adds 0.3-0.5 s to each). ` +
        `The bot asks a bare name once for sys.executable (median ${ms(median(reps.map((r) => r.resolveMs)))} here, once per bot, at its start) and spawns that. Interleaved, median of ${sizes.startupReps}.`,
      repetitions: sizes.startupReps,
      data: { reps: asFoundReps },
    },
    {
      id: "startup-cookbook",
      measurement: "Start-up to running, cookbook",
      sizes: `tinker-cookbook miniature, ${COOKBOOK_RECIPE} (one process)`,
      ours: ms(cookbookMs),
      baseline: `${ms(startMs)} (demo stack, row above)`,
      ratio: times(cookbookMs / startMs),
      goal: "report",
      met: null,
      note:
        `services.manager.start() with RL_STACK=tinker-cookbook and its default root, the bundled miniature (examples/tinker-cookbook), recipe ${COOKBOOK_RECIPE} ` +
        'with its defaults, until it resolves with the run "running": one `python3 -m tinker_cookbook.recipes.math_rl.train key=value ...` process, ready once it has ' +
        `rewritten config.json in its log folder (or stayed alive 2 s). Interleaved with the row above's runs in the same bench run; ${cookbook.reduce((n, c) => n + c.leftOver, 0)} ` +
        `of its processes were left running after the stop. Median of ${sizes.startupReps}.`,
      repetitions: sizes.startupReps,
      data: { cookbook },
    },
    {
      id: "failure-detection",
      measurement: "Trainer SIGKILL to failed + notice",
      sizes: "1 running demo run",
      ours: ms(detectMs),
      baseline: "30 s poll (15 s mean)",
      ratio: `${times(SEED_POLL_MS / 2 / detectMs)} faster than the mean`,
      goal: "< 1 s",
      met: detectMs < 1000,
      note:
        "SIGKILL to the running trainer, then a 2 ms poll until the run's row says failed and the outbox holds its failed notice (the later of the two; " +
        `median row-only ${ms(median(reps.map((r) => r.failedMs)))}); ${reps.reduce((n, r) => n + r.leftOver, 0)} of the runs' processes were left running afterwards. The seed notices a dead process on its next 30-second poll. Median of ${sizes.startupReps}.`,
      repetitions: sizes.startupReps,
      data: { reps },
    },
  ];
}
