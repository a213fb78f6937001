// Measurement: the history commands on a year of runs (100,000 in 1,000 channels in the full run), each through the
// command dispatcher as a person in one channel types it, against a budget of 100 ms of the bot's time; and the
// database file's size per 1,000 runs.
import { dispatch } from "../commands/dispatch.ts";
import type { CommandContext } from "../commands/types.ts";
import { createBudgetsRepo } from "../db/budgets.ts";
import { loadConfig } from "../src/config.ts";
import { createServices, type Services } from "../src/services.ts";
import { historyChannel, historyPerson, historyRunId, type HistoryShape } from "../test/helpers/run-history.ts";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir, onCleanup } from "./cleanup.ts";
import { copyHistoryInto, historyDatabase } from "./history-db.ts";
import { median, ms } from "./stats.ts";

const BUDGET_MS = 100;
const MINUTE = 60_000;
/** The bot's process's CPU time so far (every thread: the main one, and the garbage collector's helpers). */
const cpuNowMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface Timed {
  wallMs: number;
  cpuMs: number;
}

interface Case {
  id: string;
  title: string;
  act: () => Promise<unknown>;
}

async function timeIt(act: () => Promise<unknown>): Promise<Timed> {
  const cpu0 = cpuNowMs();
  const t0 = performance.now();
  await act();
  return { wallMs: performance.now() - t0, cpuMs: cpuNowMs() - cpu0 };
}

function casesFor(services: Services, shape: HistoryShape, tick: () => void): Case[] {
  const channelIndex = 7;
  const context: CommandContext = {
    channel: historyChannel(channelIndex),
    user: { id: historyPerson(3) },
    via: "slash",
    services,
  };
  const perChannel = shape.runs / shape.channels;
  // The channel's newest runs: i = runs - channels + 7, then one channel-count older each.
  const channelRun = (k: number) => historyRunId(shape.runs - shape.channels + channelIndex - k * shape.channels);
  const typed = (text: string) => async () => {
    const { reply } = await dispatch({ text }, context);
    if (reply.error) throw new Error(`${text}: ${reply.error.message}`);
  };
  const lastPage = Math.ceil(shape.runs / 20);
  return [
    { id: "history-runs", title: "/rl runs, page 1", act: typed("/rl runs") },
    {
      id: "history-runs-later",
      title: `/rl runs, page ${Math.ceil(perChannel / 20)} (the channel's oldest)`,
      act: typed(`/rl runs --page ${Math.ceil(perChannel / 20)}`),
    },
    {
      id: "history-runs-all-later",
      title: `/rl runs --all, page ${Math.round(lastPage * 0.9)} of ${lastPage}`,
      act: typed(`/rl runs --all --page ${Math.round(lastPage * 0.9)}`),
    },
    { id: "history-status", title: "/rl status (the channel's latest)", act: typed("/rl status") },
    {
      id: "history-status-prefix",
      title: "/rl status <6 characters of an id>",
      act: typed(`/rl status ${channelRun(3).slice(0, 6)}`),
    },
    {
      id: "history-compare",
      title: "/rl compare of 10 runs",
      act: typed(`/rl compare ${Array.from({ length: 10 }, (_, k) => channelRun(k)).join(" ")}`),
    },
    { id: "history-budget", title: "/rl budget (channel and person window sums)", act: typed("/rl budget") },
    {
      id: "history-digest",
      title: `Digest pass (${shape.live} live runs)`,
      act: async () => {
        // Every live run due again, as 31 minutes later.
        tick();
        await services.digests.runNow();
      },
    },
  ];
}

export async function measureHistory(ctx: BenchContext): Promise<BenchRow[]> {
  const { sizes } = ctx;
  const shape: HistoryShape = {
    runs: sizes.historyRuns,
    channels: sizes.historyChannels,
    live: 100,
    people: 100,
  };
  const history = historyDatabase(shape, Date.now());
  if (history.madeInSeconds !== undefined)
    ctx.progress(
      `  made ${history.file} (${(history.bytes / 1e6).toFixed(1)} MB) in ${history.madeInSeconds.toFixed(1)} s`,
    );
  const cwd = benchTempDir("history");
  const config = loadConfig({ RL_LOG_LEVEL: "silent", RL_DEFAULT_ROLE: "operate" }, cwd);
  copyHistoryInto(history, config.databasePath);
  let clock = 0;
  const services = createServices(config, { now: () => clock });
  const close = onCleanup(() => services.close());
  const newest = services.db.prepare<[], { t: number }>("SELECT MAX(created_at) AS t FROM runs").get()!.t;
  clock = newest + MINUTE;
  const budgets = createBudgetsRepo(services.db);
  const channel = historyChannel(7);
  const set = { setBy: "UBENCH", setAt: clock };
  budgets.set({ scope: { kind: "channel", channel }, kind: "runs", period: "week", amount: 100, ...set });
  budgets.set({ scope: { kind: "channel", channel }, kind: "gpu-hours", period: "month", amount: 500, ...set });
  budgets.set({
    scope: { kind: "person", channel, userId: historyPerson(3) },
    kind: "steps",
    period: "month",
    amount: 1e6,
    ...set,
  });

  const cases = casesFor(services, shape, () => (clock += 31 * MINUTE));
  const results = new Map<string, Timed[]>();
  // One warm-up of each (statements prepared, code compiled), then the repetitions, the cases interleaved.
  for (const c of cases) await timeIt(c.act);
  for (let rep = 0; rep < sizes.historyReps; rep++) {
    for (const c of cases) results.set(c.id, [...(results.get(c.id) ?? []), await timeIt(c.act)]);
  }
  await close();
  ctx.progress(
    `  ${cases.map((c) => `${c.id} ${ms(median(results.get(c.id)!.map((r) => r.cpuMs)))}`).join(", ")} (on CPU, medians)`,
  );
  const sizeText = `${shape.runs.toLocaleString("en")} runs in ${shape.channels.toLocaleString("en")} channels`;
  const rows: BenchRow[] = cases.map((c, index) => {
    const reps = results.get(c.id)!;
    const cpuMs = median(reps.map((r) => r.cpuMs));
    const wallMs = median(reps.map((r) => r.wallMs));
    return {
      id: c.id,
      measurement: `History: ${c.title}`,
      sizes: sizeText,
      ours: `${ms(cpuMs)} on CPU (${ms(wallMs)} wall)`,
      baseline: "-",
      ratio: "-",
      goal: `< ${BUDGET_MS} ms of the bot's time`,
      met: cpuMs < BUDGET_MS,
      note:
        index > 0
          ? "As the first history row."
          : `Through the command dispatcher (commands/dispatch.ts) as a person in a channel with ${shape.runs / shape.channels} of the runs types it, on a copy of a database of ${sizeText} ` +
            `(100 of them live, 100 people, 3 processes each; test/helpers/run-history.ts, made through the runs and processes repositories and cached in the temp folder's rl-bench-cache). ` +
            `The figure is the bench process's CPU time during the command (process.cpuUsage(): every thread of it, the bot's own work), which waiting for a free CPU on a busy machine does not inflate; the wall time beside it. ` +
            `Budgets: a channel's runs per week and GPU-hours per month, and the person's steps per month. Median of ${sizes.historyReps} after one warm-up, the commands interleaved.`,
      repetitions: sizes.historyReps,
      data: { reps },
    };
  });
  rows.push({
    id: "history-size",
    measurement: "History: database file per 1,000 runs",
    sizes: sizeText,
    ours: `${(((history.bytes / shape.runs) * 1000) / 1e6).toFixed(2)} MB`,
    baseline: `${(history.bytes / 1e6).toFixed(1)} MB in all`,
    ratio: "-",
    goal: "report",
    met: null,
    note:
      "The SQLite file's size after its write-ahead log was folded in: each run's row (its config of 7 fields), its 3 processes' rows, and the indexes on both. " +
      "The outbox's posts, the audit log and the samples are not counted: their size depends on how the channels are used.",
    repetitions: 1,
    data: { bytes: history.bytes, runs: shape.runs },
  });
  return rows;
}
