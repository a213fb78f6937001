// Measurement: the real bot's RSS while /rl samples reads a 1 GB Atropos groups file (streamed to a temp folder in the
// format atroposlib's BaseEnv writes, deleted after), against its own idle figure: reading must stay bounded.
import { once } from "node:events";
import { createWriteStream, mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import { createServices } from "../src/services.ts";
import { runFolderOf } from "../src/stacks/log-path.ts";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir } from "./cleanup.ts";
import { idleRssOf, procStatus, startBot } from "./memory.ts";
import { measuredEnv } from "./scan-processes.ts";
import { mb, ms } from "./stats.ts";

const FILE_BYTES = 1024 ** 3;
const GOAL_GROWTH = 20 * 1024 * 1024;
const RUN_ID = "sbench01";
const GROUP_SIZE = 8;
const TOKENS = 1500;
const ANSWER_TIMEOUT_MS = 300_000;
const SAMPLE_MS = 100;

const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

/** One ScoredDataGroup line (tokens, masks, scores, messages) of about 100 KB, its scores set by `n`. */
function groupLine(n: number): string {
  const tokens = Array.from({ length: GROUP_SIZE }, (_, i) =>
    Array.from({ length: TOKENS }, (_, t) => (t * 31 + i + n) % 50_000),
  );
  return `${JSON.stringify({
    tokens,
    masks: tokens.map((seq) => seq.map((t, i) => (i < TOKENS / 3 ? -100 : t))),
    scores: Array.from({ length: GROUP_SIZE }, (_, i) => ((n * 7 + i * 13) % 100) / 100),
    advantages: null,
    ref_logprobs: null,
    messages: Array.from({ length: GROUP_SIZE }, (_, i) => [
      { role: "user", content: `Question ${n}: what is ${n} + ${i}?` },
      { role: "assistant", content: `The answer is ${n + i}. ${"Because arithmetic. ".repeat(40)}` },
    ]),
    group_overrides: {},
    overrides: null,
    images: null,
  })}\n`;
}

/** Streams groups into `file` until it holds FILE_BYTES; returns how many groups it wrote. */
async function writeGroups(file: string): Promise<number> {
  const out = createWriteStream(file);
  const lines = Array.from({ length: 16 }, (_, i) => groupLine(i));
  let bytes = 0;
  let groups = 0;
  while (bytes < FILE_BYTES) {
    const line = lines[groups % lines.length]!;
    bytes += Buffer.byteLength(line);
    groups++;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return groups;
}

export async function measureSamplesMemory(ctx: BenchContext): Promise<BenchRow[]> {
  const cwd = benchTempDir("samples-memory");
  const dataDir = path.join(cwd, "data");
  const services = createServices(loadConfig({ RL_LOG_LEVEL: "silent", RL_DATA_DIR: dataDir }, cwd));
  services.runs.insert({
    id: RUN_ID,
    channel: { platform: "console", workspace: "local", channel: "console" },
    environment: "bench_env",
    config: {},
    status: "completed",
    createdBy: "local",
  });
  await services.close();
  const folder = runFolderOf(dataDir, RUN_ID);
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, "groups.jsonl");
  try {
    const groups = await writeGroups(file);
    const size = statSync(file).size;
    ctx.progress(`  wrote ${mb(size)} of groups (${groups} groups) to ${file}`);

    const bot = await startBot(measuredEnv({ RL_LOG_LEVEL: "info", RL_DATA_DIR: dataDir }), cwd);
    const idle = await idleRssOf(bot.pid, ctx.sizes.memoryIdleMs);
    const asks = [`/rl samples ${RUN_ID} --best --n 3`, `/rl samples ${RUN_ID} --step 0 --worst --n 3`];
    let most = idle;
    const timings: number[] = [];
    for (const ask of asks) {
      const answers = bot.stdout().split("samples of step").length;
      const started = performance.now();
      bot.child.stdin.write(`${ask}\n`);
      while (bot.stdout().split("samples of step").length === answers) {
        if (performance.now() - started > ANSWER_TIMEOUT_MS)
          throw new Error(`no answer to ${ask}: ${bot.stdout().slice(-2000)}`);
        most = Math.max(most, procStatus(bot.pid, "VmRSS"));
        await sleep(SAMPLE_MS);
      }
      timings.push(performance.now() - started);
    }
    // What it settles at once both answers are out (memory the reads let go of is given back).
    const after = await idleRssOf(bot.pid, ctx.sizes.memoryIdleMs);
    const growth = Math.max(most, after) - idle;
    await bot.stop();
    ctx.progress(
      `  idle RSS ${mb(idle)}, during the reads at most ${mb(most)}, after ${mb(after)}: growth ${mb(growth)} (answers in ${timings.map(ms).join(", ")})`,
    );
    return [
      {
        id: "samples-rss",
        measurement: "Bot RSS reading samples of a 1 GB file",
        sizes: `${mb(size)} groups.jsonl, ${groups} groups of ${GROUP_SIZE}`,
        ours: `+${mb(growth)}`,
        baseline: "-",
        ratio: "-",
        goal: `< +${mb(GOAL_GROWTH)}`,
        met: growth < GOAL_GROWTH,
        note:
          `The built bot on the console (as \`npm start\` runs it) with one completed Atropos run whose groups.jsonl (streamed into a temp folder in atroposlib's ScoredDataGroup lines with messages, deleted after) is ${mb(size)}; ` +
          `idle RSS ${mb(idle)} (median over the second half of ${ms(ctx.sizes.memoryIdleMs)}), then \`${asks.join("` and `")}\` typed on its stdin (the first indexes the whole file, the second reads step 0), VmRSS sampled every ${SAMPLE_MS} ms: at most ${mb(most)} during the reads, ${mb(after)} after (answers in ${timings.map(ms).join(" and ")}). Growth is the larger of the two less the idle figure.`,
        repetitions: 1,
        data: { idleRss: idle, mostRss: most, afterRss: after, growth, fileBytes: size, groups, answerMs: timings },
      },
    ];
  } finally {
    rmSync(file, { force: true });
  }
}
