// Measurement: the bot SIGKILLed mid-run, the run finishing meanwhile; how long the restarted bot takes to settle it.
import { connect } from "node:net";
import { loadConfig } from "../src/config.ts";
import { socketPathFor } from "../src/lease/socket-path.ts";
import { processStartTime } from "../src/process/process-info.ts";
import { demoLockedFields } from "../test/helpers/demo-stack.ts";
import { readDb, spawnBot, waitFor, type BotProcess } from "../test/helpers/bot-process.ts";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir, killPid, onCleanup } from "./cleanup.ts";
import { median, ms } from "./stats.ts";

interface Rep {
  /** Spawn to the exec socket answering, on the same data folder once nothing is left to recover. */
  readyMs: number;
  /** Spawn to the completed notice queued, the run's leftover processes stopped and the exec socket answering. */
  recoveredMs: number;
}

const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

const answers = (socket: string) =>
  new Promise<boolean>((resolve) => {
    const c = connect(socket, () => {
      c.end();
      resolve(true);
    });
    c.once("error", () => resolve(false));
  });

function tracked(bot: BotProcess): BotProcess {
  onCleanup(() => bot.kill("SIGKILL"));
  return bot;
}

async function setup(name: string) {
  const cwd = benchTempDir(name);
  const env = {
    RL_LOCKED_FIELDS: await demoLockedFields(cwd, { totalSteps: 10, stepSeconds: 0.1 }),
    RL_STOP_GRACE_SECONDS: "3",
  };
  return { cwd, env, socket: socketPathFor(loadConfig(env, cwd).dataDir) };
}

async function oneRep(rep: number): Promise<Rep> {
  // A run the bot was killed under, and which then finished without it: its API is left running.
  const { cwd, env, socket } = await setup(`recovery${rep}`);
  const first = tracked(spawnBot(cwd, env));
  first.write("/rl select parity\n");
  first.write("/rl start\n");
  const run = await waitFor(
    () =>
      readDb(
        cwd,
        env,
        (db) => db.prepare("SELECT id FROM runs WHERE status = 'running'").get() as { id: string } | undefined,
      ),
    "the run to be running",
  );
  first.kill("SIGKILL");
  await first.ended;
  const procs =
    readDb(
      cwd,
      env,
      (db) =>
        db.prepare("SELECT component, pid, start_time FROM run_processes WHERE run_id = ?").all(run.id) as Array<{
          component: string;
          pid: number;
          start_time: string;
        }>,
    ) ?? [];
  onCleanup(() => procs.forEach((p) => killPid(p.pid)));
  const alive = (p: { pid: number; start_time: string }) => processStartTime(p.pid) === p.start_time;
  await waitFor(() => !procs.some((p) => p.component === "trainer" && alive(p)), "the trainer to finish");

  const t1 = performance.now();
  const second = tracked(spawnBot(cwd, env));
  await waitFor(() => {
    const queued = readDb(cwd, env, (db) =>
      db.prepare("SELECT 1 FROM outbox WHERE dedupe_key = ?").get(`notice:${run.id}:completed`),
    );
    return queued !== undefined && !procs.some(alive);
  }, "the run to be settled").catch(() => undefined);
  while (!(await answers(socket))) await sleep(5);
  const recoveredMs = performance.now() - t1;
  second.endInput();
  await second.ended;

  // Start-up alone: the same data folder, now with nothing to recover, until the bot serves its exec socket.
  const t2 = performance.now();
  const third = tracked(spawnBot(cwd, env));
  while (!(await answers(socket))) await sleep(5);
  const readyMs = performance.now() - t2;
  third.endInput();
  await third.ended;
  return { readyMs, recoveredMs };
}

export async function measureRecovery(ctx: BenchContext): Promise<BenchRow[]> {
  const reps: Rep[] = [];
  const n = ctx.quick ? 1 : 3;
  for (let rep = 0; rep < n; rep++) {
    reps.push(await oneRep(rep));
    const r = reps.at(-1)!;
    ctx.progress(`  recovery ${rep + 1}/${n}: start-up ${ms(r.readyMs)}, settled after ${ms(r.recoveredMs)}`);
  }
  const beyond = median(reps.map((r) => r.recoveredMs - r.readyMs));
  return [
    {
      id: "recovery",
      measurement: "Restart after a SIGKILL mid-run",
      sizes: "1 demo run that finished while the bot was down",
      ours: `${ms(beyond)} beyond start-up`,
      baseline: `start-up ${ms(median(reps.map((r) => r.readyMs)))}`,
      ratio: "-",
      goal: "< 1 s beyond start-up",
      met: beyond < 1000,
      note:
        "The console bot (a child process) starts a demo run and is SIGKILLed while it runs; the run finishes alone, leaving its trajectory API running. " +
        "A new bot on the same data folder is timed from spawn until the completed notice is in the outbox, none of the run's processes is alive (a 100 ms poll of " +
        `the database and /proc) and it serves its exec socket, minus the time a third bot on that folder, with nothing left to recover, takes to serve it. Median of ${n}.`,
      repetitions: n,
      data: { reps },
    },
  ];
}
