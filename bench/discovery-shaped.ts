// Measurement: whole-process discovery of folders shaped like Atropos's environments folder, `rl-chatops scan DIR
// --json` against the seed's walk (bench/seed-scan.py, --recursive for subfolders), spawn to exit, side by side.
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir } from "./cleanup.ts";
import { generateAtroposShaped, type ShapedFolder } from "./generate-atropos-shaped.ts";
import { runCliScan, runSeedScan } from "./scan-processes.ts";
import { median, ms, times } from "./stats.ts";

/**
 * `callerEnv`: both started in the environment the bench was started in, not the measured one: what the shell adds
 * (e.g. NODE_EXTRA_CA_CERTS, which only Node pays for at start), reported beside the goal's figure.
 */
const SHAPES: ReadonlyArray<{ id: string; title: string; recursive: boolean; goal: number | null; callerEnv?: true }> =
  [
    { id: "discovery-shaped-top", title: "Discovery, whole process, top level", recursive: false, goal: 1 },
    {
      id: "discovery-shaped-top-caller-env",
      title: "Same, in the bench's own environment",
      recursive: false,
      goal: null,
      callerEnv: true,
    },
    { id: "discovery-shaped-recursive", title: "Discovery, whole process, recursive", recursive: true, goal: 0.7 },
  ];

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

function describe(folder: ShapedFolder): string {
  const k = folder.kinds;
  return (
    `${k.direct + k.attribute + k.aliased + k.indirect} environment files (${k.direct} direct BaseEnv, ${k.attribute} base.BaseEnv, ${k.aliased} aliased, ${k.indirect} through another file's class)` +
    (folder.files > 18
      ? `, ${k.helper} with helper classes only, ${k.module} helper modules without a class, ${k.init} __init__ files`
      : "")
  );
}

export async function measureDiscoveryShaped(ctx: BenchContext): Promise<BenchRow[]> {
  const reps = ctx.sizes.shapedReps;
  const cwd = benchTempDir("shaped-cli");
  const rows: BenchRow[] = [];
  for (const shape of SHAPES) {
    const folder = generateAtroposShaped(
      benchTempDir(shape.recursive ? "shaped-recursive" : "shaped-top"),
      shape.recursive,
    );
    const env = shape.callerEnv ? process.env : undefined;
    const ours = async () => {
      const run = await runCliScan(folder.dir, cwd, {
        recursive: shape.recursive,
        json: true,
        ...(env ? { env } : {}),
      });
      return {
        ms: run.wallMs,
        environments: (JSON.parse(run.stdout) as { environments: unknown[] }).environments.length,
      };
    };
    const seed = () => runSeedScan(folder.dir, { recursive: shape.recursive, ...(env ? { env } : {}) });
    // A first run of each warms the page cache; not counted.
    const first = await ours();
    const seedFirst = await seed();
    const cli: number[] = [];
    const python: number[] = [];
    const pythonLoop: number[] = [];
    for (let rep = 0; rep < reps; rep++) {
      if (rep % 2 === 0) {
        cli.push((await ours()).ms);
        const s = await seed();
        python.push(s.processMs);
        pythonLoop.push(s.scanMs);
      } else {
        const s = await seed();
        python.push(s.processMs);
        pythonLoop.push(s.scanMs);
        cli.push((await ours()).ms);
      }
      ctx.progress(
        `  ${shape.title.toLowerCase()} ${rep + 1}/${reps}: rl-chatops scan ${ms(cli.at(-1)!)}, seed ${ms(python.at(-1)!)}`,
      );
    }
    const oursMs = median(cli);
    const seedMs = median(python);
    rows.push({
      id: shape.id,
      measurement: shape.title,
      sizes: `${folder.files} files, ${kb(folder.bytes)} (Atropos-shaped)`,
      ours: ms(oursMs),
      baseline: `${ms(seedMs)} (seed walk)`,
      ratio: times(oursMs / seedMs),
      goal: shape.goal === null ? "report" : `ours/seed <= ${shape.goal.toFixed(2)}x`,
      met: shape.goal === null ? null : oursMs <= shape.goal * seedMs,
      note:
        (shape.callerEnv
          ? 'As the row above, but both started in the environment `npm run bench` was started in instead of PATH, HOME and TMPDIR only (see the row "Node start-up, the bench\'s own environment"). '
          : "") +
        `\`rl-chatops scan DIR --json\`${shape.recursive ? " with RL_SCAN_RECURSIVE=true" : ""} (built CLI: config, discovery on every core of this process, fields extracted, JSON out) ` +
        `vs \`python3 bench/seed-scan.py DIR${shape.recursive ? " --recursive" : ""}\` (the seed's loop${shape.recursive ? " with rglob" : ""}; the interpreter itself, not a version manager's shim), spawn to exit. ` +
        `Generated folder in Atropos's shape: ${describe(folder)}. Ours found ${first.environments} environments with their config fields, the seed ${seedFirst.environments} (names only). ` +
        `Seed loop alone (timed inside Python) ${ms(median(pythonLoop))}. Runs interleaved; median of ${reps}.`,
      repetitions: reps,
      data: { cli, seed: python, seedLoop: pythonLoop, files: folder.files, bytes: folder.bytes },
    });
  }
  return rows;
}
