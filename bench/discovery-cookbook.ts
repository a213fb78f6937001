// Measurement: cookbook recipe discovery on a folder shaped like tinker-cookbook's recipes/, cold and warm, against the
// ast oracle on the same folder, side by side; and the bot's event loop while it scans recipes on the cookbook stack.
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config.ts";
import { createRecipeScanner } from "../src/environments/recipes/index.ts";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir } from "./cleanup.ts";
import { generateCookbookShaped, type CookbookShapedFolder } from "./generate-cookbook-shaped.ts";
import { coldCatalogScan, probedCatalogScan, type ProbedScan } from "./probed-catalog-scan.ts";
import { measuredEnv, PYTHON, runProcess } from "./scan-processes.ts";
import { median, ms, times } from "./stats.ts";

const ORACLE_TIMED = fileURLToPath(new URL("./cookbook-oracle-timed.py", import.meta.url));
const STALL_GOAL_MS = 20;

interface OracleScan {
  processMs: number;
  scanMs: number;
  cpuMs: number;
  recipes: number;
  fields: number;
}

interface OurScan {
  ms: number;
  cpuMs: number;
  recipes: number;
  fields: number;
}

async function runOracle(recipesDir: string): Promise<OracleScan> {
  const run = await runProcess(PYTHON, [ORACLE_TIMED, recipesDir], { env: measuredEnv() });
  const answer = JSON.parse(run.stdout) as {
    scan_seconds: number;
    scan_cpu_seconds: number;
    recipes: number;
    fields: number;
  };
  return {
    processMs: run.wallMs,
    scanMs: answer.scan_seconds * 1000,
    cpuMs: answer.scan_cpu_seconds * 1000,
    recipes: answer.recipes,
    fields: answer.fields,
  };
}

async function scanWith(scanner: ReturnType<typeof createRecipeScanner>, dir: string): Promise<OurScan> {
  const cpu = process.cpuUsage();
  const begin = performance.now();
  const { environments } = await scanner.scan(dir);
  const wall = performance.now() - begin;
  const used = process.cpuUsage(cpu);
  return {
    ms: wall,
    cpuMs: (used.user + used.system) / 1000,
    recipes: environments.length,
    fields: environments.reduce((n, e) => n + e.fields.length, 0),
  };
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const sizesOf = (folder: CookbookShapedFolder) =>
  `${folder.files} files, ${folder.recipes} recipes, ${kb(folder.pythonBytes)} of Python (cookbook-shaped)`;

export async function measureDiscoveryCookbook(ctx: BenchContext): Promise<BenchRow[]> {
  const reps = ctx.sizes.cookbookReps;
  const folder = generateCookbookShaped(benchTempDir("cookbook-shaped"));
  const dir = folder.recipesDir;
  // The first scan of the process loads tree-sitter's parser and compiles the scanner; a first oracle warms the page
  // cache. Neither is counted.
  const first = await scanWith(createRecipeScanner(), dir);
  const oracleFirst = await runOracle(dir);
  const cold: OurScan[] = [];
  const warm: OurScan[] = [];
  const oracle: OracleScan[] = [];
  const ours = async () => {
    // Cold: a scanner made for this scan; warm: the same scanner's second scan of the unchanged folder.
    const scanner = createRecipeScanner();
    cold.push(await scanWith(scanner, dir));
    warm.push(await scanWith(scanner, dir));
  };
  for (let rep = 0; rep < reps; rep++) {
    if (rep % 2 === 0) {
      await ours();
      oracle.push(await runOracle(dir));
    } else {
      oracle.push(await runOracle(dir));
      await ours();
    }
    ctx.progress(
      `  cookbook discovery ${rep + 1}/${reps}: cold ${ms(cold.at(-1)!.ms)}, warm ${ms(warm.at(-1)!.ms)}, ast oracle ${ms(oracle.at(-1)!.scanMs)}`,
    );
  }

  // The bot on the cookbook stack: fresh services each time, `catalog.list()` on the generated checkout.
  const cwd = benchTempDir("cookbook-bot");
  const config = loadConfig(
    { RL_LOG_LEVEL: "silent", RL_STACK: "tinker-cookbook", RL_TRAINING_ROOT: folder.checkout },
    cwd,
  );
  await coldCatalogScan(config);
  const stalls: ProbedScan[] = [];
  for (let rep = 0; rep < reps; rep++) {
    stalls.push(await probedCatalogScan(config));
    const s = stalls.at(-1)!;
    ctx.progress(
      `  cookbook scan in the bot ${rep + 1}/${reps}: stall ${ms(s.loop.maxMs)} (on CPU ${ms(s.loop.longestRunMs)}) during a ${ms(s.scan.ms)} scan`,
    );
  }

  const coldMs = median(cold.map((s) => s.ms));
  const warmMs = median(warm.map((s) => s.ms));
  const oracleMs = median(oracle.map((s) => s.scanMs));
  const stall = median(stalls.map((s) => s.loop.maxMs));
  const onCpu = median(stalls.map((s) => s.loop.longestRunMs));
  const found = `Ours found ${first.recipes} recipes and ${first.fields} fields, the oracle ${oracleFirst.recipes} and ${oracleFirst.fields}`;
  const shape =
    `Generated checkout in the cookbook's shape (bench/generate-cookbook-shaped.ts): ${folder.pythonFiles} Python files under recipes/ ` +
    `(${folder.recipes} with a chz entry point), nested two folders deep, with images and READMEs, and ${folder.sharedFiles} shared modules ` +
    `(${kb(folder.sharedBytes)}: cli_utils, lr_scheduling, renderers, sandbox, rl/train.py's chz configs) the recipes' fields are typed from.`;
  const oracleNote =
    `python3 bench/cookbook-oracle-timed.py: the independent oracle (test/stacks/tinker-cookbook/chz_fields_oracle.py, Python's ast) ` +
    `timed inside Python with perf_counter, a new process each time (whole process ${ms(median(oracle.map((s) => s.processMs)))}; ` +
    `its CPU time ${ms(median(oracle.map((s) => s.cpuMs)))})`;
  return [
    {
      id: "discovery-cookbook-cold",
      measurement: "Cookbook discovery, cold scan",
      sizes: sizesOf(folder),
      ours: ms(coldMs),
      baseline: `${ms(oracleMs)} (ast oracle)`,
      ratio: times(coldMs / oracleMs),
      goal: "report",
      met: null,
      note:
        `createRecipeScanner().scan(recipes/) in the bench process (tree-sitter, in the calling thread), a new scanner each time, ` +
        `vs ${oracleNote}. ${shape} ${found}. CPU time: ours ${ms(median(cold.map((s) => s.cpuMs)))}. ` +
        `The process's first scan (tree-sitter loaded, code compiled; not counted) took ${ms(first.ms)}. Runs interleaved; median of ${reps}.`,
      repetitions: reps,
      data: { cold, oracle, first, oracleFirst, files: folder.files, pythonBytes: folder.pythonBytes },
    },
    {
      id: "discovery-cookbook-warm",
      measurement: "Cookbook discovery, warm rescan",
      sizes: `${sizesOf(folder)}, nothing changed`,
      ours: ms(warmMs),
      baseline: `${ms(oracleMs)} (ast oracle)`,
      ratio: times(warmMs / oracleMs),
      goal: "report",
      met: null,
      note:
        `The same scanner's second scan of the unchanged folder, right after its cold one (${times(warmMs / coldMs)} of the cold scan): ` +
        `the recipe scanner keeps nothing between scans, so every scan reads and parses the recipes and the modules they import again. ` +
        `Baseline as in the row above. Median of ${reps}.`,
      repetitions: reps,
      data: { warm },
    },
    {
      id: "discovery-cookbook-stall",
      measurement: "Event-loop stall during a cookbook scan",
      sizes: `${sizesOf(folder)}, in the bot`,
      ours: `${ms(stall)} max; on CPU ${ms(onCpu)}`,
      baseline: "-",
      ratio: "-",
      goal: `< ${STALL_GOAL_MS} ms`,
      met: stall < STALL_GOAL_MS,
      note:
        `perf_hooks.monitorEventLoopDelay (1 ms resolution) max in the bot process (createServices with RL_STACK=tinker-cookbook and the generated checkout ` +
        `as RL_TRAINING_ROOT), from the start to the end of \`catalog.list()\` with fresh services each time. The bot reads recipes in its ` +
        `discovery process (src/stacks/tinker-cookbook/recipe-catalog-scanner.ts), as it does environments; its own thread only takes the answer. ` +
        `"On CPU": the most time the main thread ran between two ticks of a 1 ms interval (Linux schedstat). ` +
        `Scan time in the bot ${ms(median(stalls.map((s) => s.scan.ms)))}; loop delay p99 ${ms(median(stalls.map((s) => s.loop.p99Ms)))}. Median of ${reps}.`,
      repetitions: reps,
      data: { stalls: stalls.map((s) => ({ scanMs: s.scan.ms, recipes: s.scan.environments, loop: s.loop })) },
    },
  ];
}
