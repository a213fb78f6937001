// Measurement 1: a cold discovery of the generated folder, ours (fresh scanner) against the seed's Python ast walk.
import { createEnvironmentScanner } from "../src/environments/scanner.ts";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir } from "./cleanup.ts";
import { runCliScan, runSeedScan, type SeedScan } from "./scan-processes.ts";
import { median, ms, times } from "./stats.ts";

interface OurScan {
  ms: number;
  cpuMs: number;
  environments: number;
  warnings: number;
}

export async function scanOnce(dir: string, lockedEnv: Record<string, unknown>): Promise<OurScan> {
  const scanner = createEnvironmentScanner({ lockedEnv });
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await scanner.scan(dir);
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return {
    ms: elapsed,
    cpuMs: (used.user + used.system) / 1000,
    environments: result.environments.length,
    warnings: result.warnings.length,
  };
}

export async function measureDiscoveryCold(ctx: BenchContext): Promise<BenchRow[]> {
  const { sizes, envs } = ctx;
  const ours: OurScan[] = [];
  const seed: SeedScan[] = [];
  // A first scan of each loads the parser and warms the page cache; it is not counted.
  await scanOnce(envs.dir, ctx.lockedEnv);
  await runSeedScan(envs.dir);
  for (let rep = 0; rep < sizes.discoveryReps; rep++) {
    // Alternate who goes first, so a burst of load on the machine hits both alike.
    if (rep % 2 === 0) {
      ours.push(await scanOnce(envs.dir, ctx.lockedEnv));
      seed.push(await runSeedScan(envs.dir));
    } else {
      seed.push(await runSeedScan(envs.dir));
      ours.push(await scanOnce(envs.dir, ctx.lockedEnv));
    }
    ctx.progress(
      `  discovery cold ${rep + 1}/${sizes.discoveryReps}: ours ${ms(ours.at(-1)!.ms)}, seed loop ${ms(seed.at(-1)!.scanMs)}`,
    );
  }
  const oursMs = median(ours.map((o) => o.ms));
  const seedMs = median(seed.map((s) => s.scanMs));

  const cliCwd = benchTempDir("cli");
  const cli: number[] = [];
  const seedProcess: number[] = [];
  for (let rep = 0; rep < sizes.processReps; rep++) {
    cli.push((await runCliScan(envs.dir, cliCwd)).wallMs);
    seedProcess.push((await runSeedScan(envs.dir)).processMs);
    ctx.progress(
      `  discovery whole process ${rep + 1}/${sizes.processReps}: rl-chatops scan ${ms(cli.at(-1)!)}, python3 ${ms(seedProcess.at(-1)!)}`,
    );
  }
  const cliMs = median(cli);
  const seedProcessMs = median(seedProcess);
  const kinds = envs.kinds;
  const sizesText = `${envs.files} files x 300 lines`;
  const found = `ours found ${ours[0]?.environments ?? "?"} environments, the seed ${seed[0]?.environments ?? "?"} (it misses aliased and indirect bases)`;
  return [
    {
      id: "discovery-cold",
      measurement: "Discovery, cold scan",
      sizes: sizesText,
      ours: ms(oursMs),
      baseline: `${ms(seedMs)} (seed loop)`,
      ratio: times(oursMs / seedMs),
      goal: "ours/seed <= 1.00x",
      met: oursMs <= seedMs,
      note:
        `Fresh createEnvironmentScanner().scan(dir) in the bench process vs the seed's _scan_environments loop (bench/seed-scan.py, ` +
        `timed inside python3 with perf_counter); ${found}. Corpus: ${kinds.direct} direct BaseEnv, ${kinds.attribute} base.BaseEnv, ` +
        `${kinds.aliased} aliased import, ${kinds.indirect} indirect (via another file's class), ${kinds.helper} helper modules. ` +
        `Seed whole process (python3 start to exit) median ${ms(median(seed.map((s) => s.processMs)))}. ` +
        `CPU time: ours ${ms(median(ours.map((o) => o.cpuMs)))}, seed loop ${ms(median(seed.map((s) => s.scanCpuMs)))}. Runs interleaved; median of ${sizes.discoveryReps}.`,
      repetitions: sizes.discoveryReps,
      data: { ours, seed, oursMedianMs: oursMs, seedLoopMedianMs: seedMs },
    },
    {
      id: "discovery-cold-process",
      measurement: "Discovery, cold, whole process",
      sizes: sizesText,
      ours: ms(cliMs),
      baseline: `${ms(seedProcessMs)} (python3)`,
      ratio: times(cliMs / seedProcessMs),
      goal: "ours/seed <= 1.00x",
      met: cliMs <= seedProcessMs,
      note:
        "`node bin/rl-chatops.js scan DIR` (Node start-up, the built command, config, discovery on every core, text output) vs `python3 bench/seed-scan.py DIR` (the interpreter itself), " +
        `each timed from spawn to exit. Median of ${sizes.processReps}.`,
      repetitions: sizes.processReps,
      data: { cli, seedProcess },
    },
  ];
}
