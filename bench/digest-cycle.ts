// Measurement 5: one digest pass over many active runs in many channels, with the WandB fake holding their trainer runs.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import { createServices, type Services } from "../src/services.ts";
import { startFakeWandb, type FakeWandb } from "../test/fakes/wandb-server.ts";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir, onCleanup } from "./cleanup.ts";
import { mainThreadTimes } from "./loop-probe.ts";
import { median, ms } from "./stats.ts";

const KEY = "wandb-bench-key-0123456789";
const PROJECT = "bench-proj";
const MINUTE = 60_000;
const TOTAL_STEPS = 1000;

const threadCpuMs = () => (mainThreadTimes()?.[0] ?? Number.NaN) / 1e6;

interface Rep {
  ms: number;
  /** Of `ms`, the time spent waiting for WandB's answers (the in-process fake doing its filtering). */
  wandbMs: number;
  /**
   * The main thread's time on a CPU during the pass, less its time on a CPU while WandB's answers were awaited (the
   * fake's filtering): the bot's own work, which a busy machine's waits for a free CPU do not inflate (NaN off Linux).
   */
  cpuMs: number;
  messages: number;
  runs: number;
  alerts: number;
  /** Runs queries (first pages) and all Runs requests (pages) sent to WandB during the pass. */
  queries: number;
  pages: number;
  otherRequests: number;
}

function writeTrainerLog(services: Services, runId: string, lastStep: number, seed: number): void {
  const lines: string[] = [];
  for (let step = Math.max(0, lastStep - 2); step <= lastStep; step++) {
    const reward = (0.2 + step * 0.01 + (seed % 7) * 0.001).toFixed(4);
    lines.push(
      `Step ${step}/${TOTAL_STEPS}`,
      "Loss: 0.5",
      `Reward/mean: ${reward}`,
      `Step ${step} complete - Loss: 0.5`,
    );
  }
  writeFileSync(services.manager.logPath(runId, "trainer"), `${lines.join("\n")}\n`);
}

function seedRuns(services: Services, wandb: FakeWandb, count: number, channels: number, now: number): string[] {
  mkdirSync(path.dirname(services.manager.logPath("x", "trainer")), { recursive: true });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `d${i.toString(16).padStart(7, "0")}`;
    const environment = `task_${i % 50}`;
    const runName = `${environment}-${id}`;
    services.runs.insert({
      id,
      channel: { platform: "slack", workspace: "TBENCH", channel: `C${String(i % channels).padStart(4, "0")}` },
      environment,
      config: {},
      status: "running",
      createdBy: "U1",
    });
    services.runs.update(id, {
      startedAt: now - 90 * MINUTE,
      totalSteps: TOTAL_STEPS,
      wandbProject: PROJECT,
      wandbGroup: runName,
      wandbRunName: runName,
    });
    writeTrainerLog(services, id, 5, i);
    wandb.addRun({
      project: PROJECT,
      entity: "bench-team",
      displayName: `${runName}-trainer-${id.slice(-4)}`,
      name: `w${id}`,
      group: runName,
      summary: { _step: 5, "reward/mean": 0.25, "train/percent_correct": 0.5 },
    });
    ids.push(id);
  }
  return ids;
}

export async function measureDigestCycle(ctx: BenchContext): Promise<BenchRow[]> {
  const { sizes } = ctx;
  const wandb = await startFakeWandb({ apiKey: KEY, entity: "bench-team" });
  const closeWandb = onCleanup(() => wandb.close());
  let clock = Date.UTC(2026, 0, 5, 12, 0, 0);
  const cwd = benchTempDir("digest");
  const config = loadConfig(
    { RL_LOG_LEVEL: "silent", WANDB_API_KEY: KEY, WANDB_BASE_URL: wandb.url, WANDB_ENTITY: "bench-team" },
    cwd,
  );
  // The WandB client's fetch, timed: the fake runs in this process, so its work is inside these waits.
  let wandbMs = 0;
  let wandbCpuMs = 0;
  const timedFetch: typeof fetch = async (input, init) => {
    const start = performance.now();
    const cpuStart = threadCpuMs();
    try {
      return await fetch(input, init);
    } finally {
      wandbMs += performance.now() - start;
      wandbCpuMs += threadCpuMs() - cpuStart;
    }
  };
  const services = createServices(config, { now: () => clock, fetch: timedFetch });
  const closeServices = onCleanup(() => services.close());
  const ids = seedRuns(services, wandb, sizes.digestRuns, sizes.digestChannels, clock);

  const reps: Rep[] = [];
  // The first pass is a warm-up (statements prepared, code compiled); every pass after it is due again 31 minutes later.
  for (let rep = -1; rep < sizes.digestReps; rep++) {
    clock += 31 * MINUTE;
    // The runs made progress since the last pass, as live runs do (else the stall alert would fire for all of them).
    ids.forEach((id, i) => writeTrainerLog(services, id, 8 + (rep + 1) * 3, i));
    const before = wandb.requests.length;
    wandbMs = 0;
    wandbCpuMs = 0;
    const start = performance.now();
    const cpuStart = threadCpuMs();
    const result = await services.digests.runNow();
    const elapsed = performance.now() - start;
    const cpuMs = threadCpuMs() - cpuStart - wandbCpuMs;
    const sent = wandb.requests.slice(before);
    const runsRequests = sent.filter((r) => r.operationName === "Runs");
    if (rep < 0) continue;
    reps.push({
      ms: elapsed,
      wandbMs,
      cpuMs,
      messages: result.messages,
      runs: result.runs,
      alerts: result.alerts,
      queries: runsRequests.filter((r) => r.variables.cursor === null || r.variables.cursor === undefined).length,
      pages: runsRequests.length,
      otherRequests: sent.length - runsRequests.length,
    });
    const r = reps.at(-1)!;
    ctx.progress(
      `  digest ${rep + 1}/${sizes.digestReps}: ${ms(r.ms)} (${ms(r.wandbMs)} waiting on WandB; the bot's own CPU ${ms(r.cpuMs)}), ${r.messages} messages for ${r.runs} runs, ${r.queries} Runs queries in ${r.pages} pages`,
    );
  }
  await closeServices();
  await closeWandb();

  const composeMs = median(reps.map((r) => r.ms - r.wandbMs));
  const totalMs = median(reps.map((r) => r.ms));
  const cpuMs = median(reps.map((r) => r.cpuMs));
  const wandbWaitMs = median(reps.map((r) => r.wandbMs));
  const messages = median(reps.map((r) => r.messages));
  const queries = Math.max(...reps.map((r) => r.queries));
  const pages = median(reps.map((r) => r.pages));
  const other = Math.max(...reps.map((r) => r.otherRequests));
  const sizesText = `${sizes.digestRuns} runs in ${sizes.digestChannels} channels`;
  return [
    {
      id: "digest-time",
      measurement: "Digest cycle, compose",
      sizes: sizesText,
      ours: `${ms(composeMs)} (+ ${ms(wandbWaitMs)} WandB fake); on CPU ${ms(cpuMs)}`,
      baseline: "-",
      ratio: "-",
      goal: "< 400 ms (the bot's own time)",
      met: composeMs < 400,
      note:
        `services.digests.runNow() over ${sizes.digestRuns} "running" rows (each with a 3-step trainer log, and a trainer run in the WandB fake, test/fakes/wandb-server.ts), ` +
        `31 simulated minutes apart so every run is due, until the messages are in the outbox (sending is not included). The figure is the pass's wall time minus the time ` +
        `its WandB requests took to be answered (the client's fetch, timed); the whole pass took ${ms(totalMs)}. "On CPU" is the main thread's ` +
        `time on a CPU during the pass less its time on a CPU while the WandB requests were awaited (Linux schedstat): the bot's own work, which ` +
        `waiting for a free CPU on a busy machine does not inflate (the logs are read on the main thread, a few milliseconds' worth a turn, so their reads are in it). The fake runs in this process and evaluates the ` +
        `one filter (the list of the runs' ${sizes.digestRuns} groups, $in) against every stored run for each page, one set look-up per run; WandB's own server time is unknown here. ` +
        `Median of ${sizes.digestReps} after one warm-up pass.`,
      repetitions: sizes.digestReps,
      data: { reps },
    },
    {
      id: "digest-messages",
      measurement: "Digest cycle, messages",
      sizes: sizesText,
      ours: `${messages} messages`,
      baseline: `${sizes.digestRuns} (one per run)`,
      ratio: "-",
      goal: `${sizes.digestChannels} (one per channel)`,
      met: reps.every((r) => r.messages === sizes.digestChannels && r.runs === sizes.digestRuns),
      note: `Digest messages queued in the outbox per pass (runs coalesced per channel); ${reps[0]?.runs ?? 0} runs covered, ${Math.max(...reps.map((r) => r.alerts))} alerts.`,
      repetitions: sizes.digestReps,
      data: { reps },
    },
    {
      id: "digest-wandb",
      measurement: "Digest cycle, WandB requests",
      sizes: `${sizesText}, 1 project`,
      ours: `${queries} query, ${pages} pages`,
      baseline: `${sizes.digestRuns} (one per run)`,
      ratio: `${(sizes.digestRuns / pages).toFixed(0)}x fewer requests`,
      goal: "1 query per project",
      met: reps.every((r) => r.queries === 1),
      note:
        `Runs requests the WandB fake received during one pass: queries (first pages, no cursor) and pages (the client's 50-run pages of that one query); ` +
        `${other} other requests. The baseline is a look-up per run, as the seed does for each run it reports on.`,
      repetitions: sizes.digestReps,
      data: { reps },
    },
  ];
}
