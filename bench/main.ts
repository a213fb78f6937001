// `npm run bench [-- --quick] [-- --only id,...]`: runs every measurement in turn, prints the table, writes bench/results.json.
// `npm run bench -- --markdown` prints the latest results as Markdown instead.
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config.ts";
import { loadLockedFields } from "../src/locked-fields.ts";
import type { BenchContext } from "./bench-context.ts";
import { readBenchOptions } from "./bench-options.ts";
import { measuredLoad, type BenchReport, type BenchRow } from "./bench-row.ts";
import { benchTempDir, cleanupAll } from "./cleanup.ts";
import { readCpuTimes, stolenShare } from "./cpu-steal.ts";
import { measureCliStart } from "./cli-start.ts";
import { measureDigestCycle } from "./digest-cycle.ts";
import { measureDiscoveryCold } from "./discovery-cold.ts";
import { measureDiscoveryCookbook } from "./discovery-cookbook.ts";
import { measureDiscoveryShaped } from "./discovery-shaped.ts";
import { measureDiscoveryWarm } from "./discovery-warm.ts";
import { generateEnvironments } from "./generate-environments.ts";
import { measureHistory } from "./history-scale.ts";
import { measureMcpRead } from "./mcp-read.ts";
import { measureMemory } from "./memory.ts";
import { measureSamplesMemory } from "./samples-memory.ts";
import { markdownTable, notes, stolenPercent, textTable } from "./print-table.ts";
import { measureRecovery } from "./recovery.ts";
import { measureResponsiveness } from "./responsiveness.ts";
import { PYTHON } from "./scan-processes.ts";
import { measureStartup } from "./startup.ts";

const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));

const MEASUREMENTS: Array<{ id: string; title: string; run: (ctx: BenchContext) => Promise<BenchRow[]> }> = [
  { id: "cli-start", title: "1. Command start", run: measureCliStart },
  { id: "discovery-cold", title: "2. Discovery, cold", run: measureDiscoveryCold },
  { id: "discovery-shaped", title: "3. Discovery, Atropos-shaped folders", run: measureDiscoveryShaped },
  { id: "discovery-warm", title: "4. Discovery, warm", run: measureDiscoveryWarm },
  { id: "discovery-cookbook", title: "5. Discovery, cookbook-shaped folder", run: measureDiscoveryCookbook },
  { id: "responsiveness", title: "6. Responsiveness", run: measureResponsiveness },
  { id: "startup", title: "7. Start-up and failure detection", run: measureStartup },
  { id: "digest", title: "8. Digest cycle", run: measureDigestCycle },
  { id: "memory", title: "9. Memory", run: measureMemory },
  { id: "recovery", title: "10. Recovery after a crash", run: measureRecovery },
  { id: "samples-rss", title: "11. Reading samples of a 1 GB file", run: measureSamplesMemory },
  { id: "history", title: "12. History: 100,000 past runs", run: measureHistory },
  { id: "mcp-read", title: "13. A read tool through rl-chatops mcp", run: measureMcpRead },
];

function failedRow(id: string, title: string, err: unknown): BenchRow {
  const message = err instanceof Error ? err.message : String(err);
  return {
    id,
    measurement: title,
    sizes: "-",
    ours: "error",
    baseline: "-",
    ratio: "-",
    goal: "-",
    met: false,
    note: `The measurement failed: ${message}`,
    repetitions: 0,
    data: {},
  };
}

function printMarkdown(): number {
  const report = JSON.parse(readFileSync(RESULTS, "utf8")) as BenchReport;
  console.log(
    `${markdownTable(report.rows)}\n\n${notes(report.rows)}\n\n${report.mode} run of ${report.date.slice(0, 10)}, ${report.totalSeconds} s, ${report.machine.cpus} CPUs, ${report.machine.node} (${report.machine.nodeFlags?.join(" ") || "no flags"}), ${report.machine.python}.`,
  );
  return 0;
}

async function main(): Promise<number> {
  const options = readBenchOptions(process.argv.slice(2));
  if (options.markdown) return printMarkdown();
  const started = performance.now();
  const loadAtStart = loadavg();
  // bin/bench.mjs starts this process with the bot's flags; tsx's own are left out.
  const nodeFlags = process.execArgv.filter((flag) => /^--max-/.test(flag));
  const cwd = benchTempDir("config");
  const lockedEnv = loadLockedFields(loadConfig({ RL_LOG_LEVEL: "silent" }, cwd).lockedFieldsPath).env;
  const envDir = benchTempDir("envs");
  const ctx: BenchContext = {
    quick: options.quick,
    sizes: options.sizes,
    envs: generateEnvironments(envDir, options.sizes.envFiles),
    lockedEnv,
    progress: (text) => console.log(text),
  };
  console.log(
    `rl-chatops bench (${options.quick ? "quick" : "full"}) on ${cpus().length} CPUs, load average ${loadAtStart.map((l) => l.toFixed(2)).join(" ")}, Node flags ${nodeFlags.join(" ") || "none"} (the bot's)`,
  );
  const rows: BenchRow[] = [];
  for (const m of MEASUREMENTS) {
    if (options.only.length > 0 && !options.only.some((prefix) => m.id.startsWith(prefix))) continue;
    console.log(m.title);
    const t = performance.now();
    const loadBefore = loadavg()[0]!;
    const cpuBefore = readCpuTimes();
    let measured: BenchRow[];
    try {
      measured = await m.run(ctx);
    } catch (err) {
      console.error(`${m.title} failed:`, err);
      measured = [failedRow(m.id, m.title, err)];
    }
    const load = measuredLoad(loadBefore, loadavg()[0]!, cpus().length, stolenShare(cpuBefore, readCpuTimes()));
    rows.push(...measured.map((row) => ({ ...row, load })));
    console.log(
      `  (${((performance.now() - t) / 1000).toFixed(1)} s, load ${load.start.toFixed(2)} -> ${load.end.toFixed(2)} on ${load.cpus} CPUs${load.steal === undefined ? "" : `, ${stolenPercent(load.steal)} of their time stolen`}${load.busy ? ": busy, these figures are slower than on a quiet machine" : ""})`,
    );
  }

  const report: BenchReport = {
    date: new Date().toISOString(),
    mode: options.quick ? "quick" : "full",
    machine: {
      cpus: cpus().length,
      node: process.version,
      nodeFlags,
      python: execFileSync(PYTHON, ["--version"]).toString().trim(),
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadavg(),
    },
    totalSeconds: Math.round((performance.now() - started) / 100) / 10,
    rows,
  };
  console.log(`\n${textTable(rows)}\n\n${notes(rows)}\n`);
  console.log(
    `Total ${report.totalSeconds} s; load average at the end ${report.machine.loadAverageAtEnd.map((l) => l.toFixed(2)).join(" ")}. Written to bench/results.json.`,
  );
  writeFileSync(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
  // A missed goal is a result, not a crash: only a measurement that could not run fails the command.
  return rows.some((r) => r.ours === "error") ? 1 : 0;
}

let code = 1;
const interrupt = (signal: NodeJS.Signals) => {
  console.error(`\n${signal}: cleaning up`);
  void cleanupAll().finally(() => process.exit(130));
};
process.once("SIGINT", interrupt);
process.once("SIGTERM", interrupt);
try {
  code = await main();
} catch (err) {
  console.error(err);
} finally {
  await cleanupAll();
}
// Keep-alive sockets and unref'd timers of the libraries must not keep the bench alive once it is done.
process.exit(code);
