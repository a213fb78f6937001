// Measurement 6: resident memory of the real bot, idle, with Slack and Discord on fakes and many runs in its database.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import { createServices } from "../src/services.ts";
import type { RunStatus } from "../db/runs.ts";
import { startFakeDiscord, type FakeDiscord } from "../test/fakes/discord-gateway.ts";
import { startFakeSlackApi } from "../test/fakes/slack-api.ts";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir, onCleanup } from "./cleanup.ts";
import { mb, median, ms } from "./stats.ts";
import { ensureBundle } from "../bin/bundle.js";
import { startTsChild } from "./ts-child.ts";

const BOT_TOKEN = "xoxb-1111111111-2222222222-benchbottokenvalue";
const SIGNING_SECRET = "bench-signing-secret-0123456789abcdef";
const GOAL_BYTES = 150 * 1024 * 1024;
const FINISHED: RunStatus[] = ["completed", "failed", "stopped"];
const SAMPLE_MS = 500;
const FLOOR_IDLE_MS = 2000;

interface Rep {
  startMs: number;
  /** Median of the RSS samples over the second half of the idle period (from /proc/PID/status VmRSS). */
  idleRss: number;
  /** The process's peak RSS (VmHWM), start-up included. */
  peakRss: number;
  heapUsed: number;
  /** VmRSS right after a forced full GC, at the end of the idle period. */
  afterGcRss: number;
}

const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

function procStatus(pid: number, key: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** A database holding `count` finished runs, as a bot that has been used for a while has. */
async function seedDatabase(dataDir: string, cwd: string, count: number): Promise<void> {
  const services = createServices(loadConfig({ RL_LOG_LEVEL: "silent", RL_DATA_DIR: dataDir }, cwd));
  const now = Date.now();
  services.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = `m${i.toString(16).padStart(7, "0")}`;
      const environment = `task_${i % 50}`;
      services.runs.insert({ id, channel: { platform: i % 2 ? "slack" : "discord", workspace: "TBENCH", channel: `C${i % 100}` }, environment, config: { group_size: 8, total_steps: 100 }, status: FINISHED[i % 3]!, createdBy: "U1" });
      services.runs.update(id, { startedAt: now - 3_600_000, endedAt: now - 60_000, totalSteps: 100, wandbProject: "proj", wandbGroup: `${environment}-${id}`, wandbRunName: `${environment}-${id}` });
    }
  })();
  await services.close();
}

async function oneChild(env: NodeJS.ProcessEnv, cwd: string, idleMs: number): Promise<Rep> {
  // The bot runs as the rl-chatops command runs it: bundled JavaScript on plain Node (bin/bundle.js).
  const bundle = await ensureBundle("bench/memory-child.ts", "bench-memory-child");
  const child = startTsChild("./memory-child.ts", env, cwd, ["--expose-gc"], bundle);
  const started = await child.next<{ type: string; ms: number }>("started");
  const pid = child.process.pid!;
  const samples: number[] = [];
  for (let waited = 0; waited < idleMs; waited += SAMPLE_MS) {
    await sleep(SAMPLE_MS);
    if (waited >= idleMs / 2) samples.push(procStatus(pid, "VmRSS"));
  }
  const peakRss = procStatus(pid, "VmHWM");
  child.send({ type: "memory" });
  const usage = await child.next<{ type: string; heapUsed: number }>("memory");
  child.send({ type: "gc" });
  await child.next("gc-done");
  const afterGcRss = procStatus(pid, "VmRSS");
  child.send({ type: "stop" });
  await child.exited;
  return { startMs: started.ms, idleRss: median(samples), peakRss, heapUsed: usage.heapUsed, afterGcRss };
}

export async function measureMemory(ctx: BenchContext): Promise<BenchRow[]> {
  const { sizes } = ctx;
  const slack = await startFakeSlackApi({ botToken: BOT_TOKEN });
  const closeSlack = onCleanup(() => slack.close());
  const cwd = benchTempDir("memory");
  const dataDir = path.join(cwd, "data");
  await seedDatabase(dataDir, cwd, sizes.memoryRuns);

  // Only what the bot needs: none of the caller's own tokens or settings leak in.
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
  const botEnv = (discord: FakeDiscord): NodeJS.ProcessEnv => ({
    ...base,
    RL_LOG_LEVEL: "error",
    RL_DATA_DIR: dataDir,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_PORT: "0",
    SLACK_API_URL: slack.apiUrl,
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_GUILD_ID: discord.ids.guild,
  });
  const reps: Rep[] = [];
  for (let rep = 0; rep < sizes.memoryReps; rep++) {
    // A fresh Discord fake each time: a gateway session left by the previous bot would make this one resume.
    const discord = await startFakeDiscord();
    const closeDiscord = onCleanup(() => discord.close());
    reps.push(await oneChild(botEnv(discord), cwd, sizes.memoryIdleMs));
    await closeDiscord();
    const r = reps.at(-1)!;
    ctx.progress(`  memory ${rep + 1}/${sizes.memoryReps}: idle RSS ${mb(r.idleRss)} (peak ${mb(r.peakRss)}, heap used ${mb(r.heapUsed)}, after a full GC ${mb(r.afterGcRss)}), started in ${ms(r.startMs)}`);
  }
  const bareOnly = await oneChild({ ...base, BENCH_MEMORY_MODE: "bare" }, cwd, FLOOR_IDLE_MS);
  const modulesOnly = await oneChild({ ...base, BENCH_MEMORY_MODE: "modules" }, cwd, FLOOR_IDLE_MS);
  const nodeOnly = Number(execFileSync(process.execPath, ["-e", `setTimeout(() => console.log(process.memoryUsage().rss), ${FLOOR_IDLE_MS})`]).toString());
  await closeSlack();

  const idle = median(reps.map((r) => r.idleRss));
  return [
    {
      id: "memory-idle",
      measurement: "Bot RSS, idle",
      sizes: `Slack + Discord on fakes, ${sizes.memoryRuns} runs in the DB`,
      ours: mb(idle),
      baseline: "-",
      ratio: "-",
      goal: "< 150 MB",
      met: idle < GOAL_BYTES,
      note:
        `A child process running the real entry (src/main.ts startBot, console off) bundled as the rl-chatops command runs it (plain Node, no tsx), with SLACK_* pointing at the Slack fake and DISCORD_* at the Discord fake ` +
        `(test/fakes/discord-gateway.ts), both in the bench process, and ${sizes.memoryRuns} finished runs in its SQLite database. VmRSS sampled every ${SAMPLE_MS} ms ` +
        `over the second half of ${ms(sizes.memoryIdleMs)} idle; peak (VmHWM) ${mb(median(reps.map((r) => r.peakRss)))}; ` +
        `after a forced full GC at the end (child started with --expose-gc for that reading only) ${mb(median(reps.map((r) => r.afterGcRss)))}. ` +
        `What it sits on, measured the same way: Node alone ${mb(nodeOnly)}, the bundle loaded with nothing imported ${mb(bareOnly.idleRss)}, ` +
        `+ the bot's modules loaded but not started ${mb(modulesOnly.idleRss)}. Median of ${sizes.memoryReps}.`,
      repetitions: sizes.memoryReps,
      data: { reps, nodeOnlyRss: nodeOnly, bareOnly, modulesOnly },
    },
  ];
}
