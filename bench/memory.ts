// Measurement: resident memory of the real bot (the built `rl-chatops`, as users start it), idle, with no platform
// configured (the console) and with Slack and Discord on local fakes, 1,000 runs in its database either way.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import { createServices } from "../src/services.ts";
import type { RunStatus } from "../db/runs.ts";
import { startFakeDiscord } from "../test/fakes/discord-gateway.ts";
import { startFakeSlackApi } from "../test/fakes/slack-api.ts";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir, onCleanup, trackChild } from "./cleanup.ts";
import { CLI, measuredEnv } from "./scan-processes.ts";
import { mb, median, ms } from "./stats.ts";

const BOT_TOKEN = "xoxb-1111111111-2222222222-benchbottokenvalue";
const SIGNING_SECRET = "bench-signing-secret-0123456789abcdef";
const GOAL_BYTES = 120 * 1024 * 1024;
const FINISHED: RunStatus[] = ["completed", "failed", "stopped"];
const SAMPLE_MS = 500;
const START_TIMEOUT_MS = 60_000;

interface Rep {
  /** Spawn to the bot's "rl-chatops started" log line. */
  startMs: number;
  /** Median of the RSS samples over the second half of the idle period (from /proc/PID/status VmRSS). */
  idleRss: number;
  /** The process's peak RSS (VmHWM), start-up included. */
  peakRss: number;
}

const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

export function procStatus(pid: number, key: "VmRSS" | "VmHWM"): number {
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
      services.runs.insert({
        id,
        channel: { platform: i % 2 ? "slack" : "discord", workspace: "TBENCH", channel: `C${i % 100}` },
        environment,
        config: { group_size: 8, total_steps: 100 },
        status: FINISHED[i % 3]!,
        createdBy: "U1",
      });
      services.runs.update(id, {
        startedAt: now - 3_600_000,
        endedAt: now - 60_000,
        totalSteps: 100,
        wandbProject: "proj",
        wandbGroup: `${environment}-${id}`,
        wandbRunName: `${environment}-${id}`,
      });
    }
  })();
  await services.close();
}

/** The arguments `npm start` gives Node (package.json's start script), bin/rl-chatops.js as an absolute path. */
export function startArguments(): string[] {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    scripts: { start: string };
  };
  const [node, ...args] = pkg.scripts.start.trim().split(/\s+/);
  if (node !== "node" || !args.includes("bin/rl-chatops.js"))
    throw new Error(`unexpected start script: ${pkg.scripts.start}`);
  return args.map((arg) => (arg === "bin/rl-chatops.js" ? CLI : arg));
}

/** A bot started as `npm start` starts it, up to its "rl-chatops started" line; stdin is held open and writable. */
export interface StartedBot {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  startMs: number;
  stdout(): string;
  /** SIGTERM, and an error unless it exits 0. */
  stop(): Promise<void>;
}

export async function startBot(env: NodeJS.ProcessEnv, cwd: string): Promise<StartedBot> {
  const started = performance.now();
  const child = spawn(process.execPath, startArguments(), { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  trackChild(child);
  let stderr = "";
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  while (!stderr.includes('"rl-chatops started"')) {
    if (child.exitCode !== null || performance.now() - started > START_TIMEOUT_MS)
      throw new Error(`the bot did not start: ${stderr.slice(-2000)}`);
    await sleep(20);
  }
  return {
    child,
    pid: child.pid!,
    startMs: performance.now() - started,
    stdout: () => stdout,
    async stop() {
      child.kill("SIGTERM");
      if ((await exited) !== 0) throw new Error(`the bot did not stop cleanly: ${stderr.slice(-2000)}`);
    },
  };
}

/** The median VmRSS of samples taken every SAMPLE_MS over the second half of `idleMs`. */
export async function idleRssOf(pid: number, idleMs: number): Promise<number> {
  const samples: number[] = [];
  for (let waited = 0; waited < idleMs; waited += SAMPLE_MS) {
    await sleep(SAMPLE_MS);
    if (waited >= idleMs / 2) samples.push(procStatus(pid, "VmRSS"));
  }
  return median(samples);
}

/** Starts the bot as `npm start` does (stdin held open, so a console bot stays up), idles it, samples its memory, stops it. */
async function oneBot(env: NodeJS.ProcessEnv, cwd: string, idleMs: number): Promise<Rep> {
  const bot = await startBot(env, cwd);
  const idleRss = await idleRssOf(bot.pid, idleMs);
  const peakRss = procStatus(bot.pid, "VmHWM");
  await bot.stop();
  return { startMs: bot.startMs, idleRss, peakRss };
}

export async function measureMemory(ctx: BenchContext): Promise<BenchRow[]> {
  const { sizes } = ctx;
  const slack = await startFakeSlackApi({ botToken: BOT_TOKEN });
  const closeSlack = onCleanup(() => slack.close());
  const cwd = benchTempDir("memory");
  const dataDir = path.join(cwd, "data");
  await seedDatabase(dataDir, cwd, sizes.memoryRuns);

  // Only what the bot needs: none of the caller's own tokens or settings leak in.
  const base = measuredEnv({ RL_LOG_LEVEL: "info", RL_DATA_DIR: dataDir });
  const configurations = [
    {
      id: "memory-idle-none",
      title: "Bot RSS, idle, no platform",
      sizes: `console on the demo stack, ${sizes.memoryRuns} runs in the DB`,
      goal: undefined,
    },
    {
      id: "memory-idle-both",
      title: "Bot RSS, idle, Slack + Discord",
      sizes: `both on fakes, ${sizes.memoryRuns} runs in the DB`,
      goal: GOAL_BYTES,
    },
  ];
  const reps: Record<string, Rep[]> = {};
  for (const configuration of configurations) {
    reps[configuration.id] = [];
    for (let rep = 0; rep < sizes.memoryReps; rep++) {
      let env = base;
      let closeDiscord: () => Promise<void> = async () => undefined;
      if (configuration.goal !== undefined) {
        // A fresh Discord fake each time: a gateway session left by the previous bot would make this one resume.
        const discord = await startFakeDiscord();
        closeDiscord = onCleanup(() => discord.close());
        env = {
          ...base,
          SLACK_BOT_TOKEN: BOT_TOKEN,
          SLACK_SIGNING_SECRET: SIGNING_SECRET,
          SLACK_PORT: "0",
          SLACK_API_URL: slack.apiUrl,
          DISCORD_TOKEN: discord.token,
          DISCORD_API_URL: discord.apiUrl,
          DISCORD_GUILD_ID: discord.ids.guild,
        };
      }
      reps[configuration.id]!.push(await oneBot(env, cwd, sizes.memoryIdleMs));
      await closeDiscord();
      const r = reps[configuration.id]!.at(-1)!;
      ctx.progress(
        `  ${configuration.title.toLowerCase()} ${rep + 1}/${sizes.memoryReps}: idle RSS ${mb(r.idleRss)} (peak ${mb(r.peakRss)}), started in ${ms(r.startMs)}`,
      );
    }
  }
  const nodeOnly = Number(
    execFileSync(process.execPath, ["-e", `setTimeout(() => console.log(process.memoryUsage().rss), 2000)`]).toString(),
  );
  await closeSlack();

  return configurations.map((configuration) => {
    const runs = reps[configuration.id]!;
    const idle = median(runs.map((r) => r.idleRss));
    return {
      id: configuration.id,
      measurement: configuration.title,
      sizes: configuration.sizes,
      ours: mb(idle),
      baseline: "-",
      ratio: "-",
      goal: configuration.goal === undefined ? "report" : `< ${mb(configuration.goal)}`,
      met: configuration.goal === undefined ? null : idle < configuration.goal,
      note:
        `\`${["node", ...startArguments().map((arg) => (arg === CLI ? "bin/rl-chatops.js" : arg))].join(" ")}\` (the build, as \`npm start\` and the \`rl-chatops\` command run it) in a child process${configuration.goal === undefined ? " with no platform token: the console on the demo stack, its stdin held open" : ", SLACK_* pointing at the Slack fake (HTTP receiver on a free port) and DISCORD_* at the Discord fake (test/fakes/discord-gateway.ts), both in the bench process"}, ` +
        `with ${sizes.memoryRuns} finished runs in its SQLite database; no discovery has run yet. VmRSS sampled every ${SAMPLE_MS} ms over the second half of ${ms(sizes.memoryIdleMs)} idle after its "rl-chatops started" line ` +
        `(median start ${ms(median(runs.map((r) => r.startMs)))}); peak (VmHWM) ${mb(median(runs.map((r) => r.peakRss)))}. Node alone idles at ${mb(nodeOnly)}. Median of ${sizes.memoryReps}.`,
      repetitions: sizes.memoryReps,
      data: { reps: runs, nodeOnlyRss: nodeOnly },
    };
  });
}
