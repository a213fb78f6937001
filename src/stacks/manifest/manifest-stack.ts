// A training stack described by a manifest: one trainer process per run, started from the manifest's command with the
// run's changed fields as overrides (never through a shell), its progress, checkpoints and samples read from the files
// the manifest names. What a manifest leaves out (resume, fork, samples) the stack says it cannot do, by name.
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { RunRow } from "../../../db/runs.ts";
import type { Config } from "../../config.ts";
import type { EnvironmentCatalog } from "../../environments/resolution/catalog.ts";
import { RlError } from "../../errors.ts";
import { childEnv } from "../../process/child-env.ts";
import { logPathOf, runFolderOf } from "../log-path.ts";
import { newestWrite } from "../newest-write.ts";
import type { Checkpoint, TrainingStack } from "../training-stack.ts";
import { writeRunFile } from "../write-run-file.ts";
import { expandTemplate, placeholdersIn } from "./expand-template.ts";
import { manifestArgv, type RunVariables } from "./manifest-argv.ts";
import type { StackManifest } from "./manifest-schema.ts";
import { markerProblem, readManifestCheckpoints } from "./read-manifest-checkpoints.ts";
import { createProgressReader } from "./read-manifest-progress.ts";
import { readManifestSamples } from "./read-manifest-samples.ts";
import { freePort } from "./free-port.ts";

export interface ManifestStackDeps {
  manifest: StackManifest;
  /** Where the manifest was read from, for people. */
  manifestFile: string;
  config: Config;
  catalog: Pick<EnvironmentCatalog, "latest" | "get">;
  /** Fields no channel may change, with their values (the locked fields file's `stack:` section). */
  locked: Readonly<Record<string, unknown>>;
  processEnv?: NodeJS.ProcessEnv;
  settleMs: number;
}

/** What a manifest run's config file holds: the entry and the values the run was started with. */
interface ManifestRunFile {
  entry: string;
  entryPath?: string;
  values: Record<string, unknown>;
}

/** The field a fork sets to the checkpoint's path: the one fork.set gives "{checkpoint}". */
const forkFieldOf = (manifest: StackManifest) =>
  manifest.fork &&
  Object.entries(manifest.fork.set).find(([, v]) => typeof v === "string" && v.includes("{checkpoint}"))?.[0];

export function createManifestStack(deps: ManifestStackDeps): TrainingStack {
  const { manifest, config } = deps;
  const runDir = (runId: string) => runFolderOf(config.dataDir, runId);
  const fileVars = (run: Pick<RunRow, "id">) => ({ run_dir: runDir(run.id), run_id: run.id });
  const readProgress = createProgressReader(manifest.progress);
  const forkField = forkFieldOf(manifest);
  const stepsOf = (values: Readonly<Record<string, unknown>>) => {
    const value = manifest.progress.total_steps && values[manifest.progress.total_steps];
    return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
  };
  /** Each attempt's metrics file, oldest first: one file unless the path names the attempt. */
  const metricsFiles = (run: RunRow) => {
    const attempts = placeholdersIn(manifest.progress.metrics).includes("attempt") ? run.attempt + 1 : 1;
    return Array.from({ length: attempts }, (_, attempt) =>
      expandTemplate(manifest.progress.metrics, { ...fileVars(run), attempt: String(attempt) }),
    );
  };
  const readCheckpoints = (run: RunRow) =>
    manifest.checkpoints
      ? readManifestCheckpoints(
          manifest.checkpoints,
          expandTemplate(manifest.checkpoints.glob, fileVars(run)),
          manifest.checkpoints.latest && expandTemplate(manifest.checkpoints.latest, fileVars(run)),
        )
      : Promise.resolve([]);

  async function variables(run: RunRow, file: ManifestRunFile): Promise<RunVariables> {
    const entryPath = file.entryPath ?? (await deps.catalog.get(file.entry)).filePath;
    const vars: RunVariables = {
      python: config.python,
      entry: entryPath,
      entry_name: file.entry,
      ...fileVars(run),
      attempt: String(run.attempt),
    };
    const uses = JSON.stringify([manifest.run, run.attempt > 0 ? manifest.resume : undefined]);
    if (uses.includes("{port}")) vars.port = String(await freePort());
    if (run.attempt > 0 && manifest.resume) {
      const last = (await readCheckpoints(run)).at(-1);
      if (last) Object.assign(vars, { checkpoint: last.path, step: String(last.step) });
    }
    return vars;
  }

  return {
    id: manifest.name,
    title: manifest.title ?? `${manifest.name}, described by its stack manifest`,
    unitName: manifest.unit,
    components: [
      {
        name: "trainer",
        title: "trainer",
        ready: {
          kind: "settle",
          settleMs: manifest.run.ready_seconds ? manifest.run.ready_seconds * 1000 : deps.settleMs,
        },
        help: {
          what: `The trainer command of the ${manifest.name} stack (run.command in ${deps.manifestFile})`,
          settings: ["RL_PYTHON", "RL_STACK"],
          provider: `Install the trainer so that command runs in RL_TRAINING_ROOT (now ${config.trainingRoot})`,
        },
      },
    ],
    main: "trainer",
    stopOrder: ["trainer"],
    ...(forkField ? { forkField } : {}),
    prepare(runId, entry, values) {
      const known = deps.catalog.latest()?.environments.find((e) => e.name === entry);
      const given: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(values)) if (v !== undefined) given[k] = v;
      const forced = { ...given, ...structuredClone(deps.locked) };
      const file: ManifestRunFile = { entry, ...(known ? { entryPath: known.filePath } : {}), values: forced };
      const configPath = writeRunFile(
        path.join(config.runConfigsDir, `${runId}.json`),
        `${JSON.stringify(file, null, 2)}\n`,
        config.secrets,
      );
      const defaults = Object.fromEntries((known?.fields ?? []).map((f) => [f.name, f.default]));
      const wandbName = `${entry}-${runId}`;
      return {
        configPath,
        totalSteps: stepsOf({ ...defaults, ...forced }),
        wandbProject: config.wandb.project,
        wandbGroup: wandbName,
        wandbRunName: wandbName,
      };
    },
    stepsOf,
    async plan(run, component) {
      let file: ManifestRunFile;
      try {
        file = JSON.parse(await readFile(run.configPath ?? "", "utf8")) as ManifestRunFile;
      } catch (err) {
        throw new RlError(
          "PROCESS_FAILED",
          `Run ${run.id}'s config file ${run.configPath ?? "(none)"} cannot be read: ${(err as Error).message}.`,
        );
      }
      const vars = await variables(run, file);
      const { command, args, env } = manifestArgv(manifest, vars, file.values, run.attempt > 0);
      mkdirSync(vars.run_dir!, { recursive: true, mode: 0o700 });
      return {
        component,
        command,
        args,
        cwd: config.trainingRoot,
        env: childEnv(deps.processEnv ?? process.env, config.trainingRoot, {
          WANDB_API_KEY: config.keys.wandb,
          ...env,
        }),
        logPath: logPathOf(config.logsDir, run.id, component),
      };
    },
    async readProgress(run) {
      const progress = await readProgress(metricsFiles(run), run.totalSteps);
      // A finished run's weights are its last checkpoint, where the stack keeps them.
      if (progress.completed) progress.finalWeights = (await readCheckpoints(run)).at(-1)?.path;
      return progress;
    },
    readCheckpoints,
    ...(manifest.checkpoints?.complete_when
      ? { checkCheckpoint: (c: Checkpoint) => markerProblem(path.join(c.path, manifest.checkpoints!.complete_when!)) }
      : {}),
    lastWrite: (run) => newestWrite([logPathOf(config.logsDir, run.id, "trainer"), ...metricsFiles(run)]),
    async readSamples(run, query) {
      if (!manifest.samples)
        throw new RlError(
          "CONFLICT",
          `The ${manifest.name} stack keeps no samples the bot can read (its manifest has no samples: key).`,
        );
      return readManifestSamples(
        manifest.samples,
        expandTemplate(manifest.samples.path, { ...fileVars(run), step: "{step}" }),
        query,
      );
    },
    canResume: manifest.resume !== undefined,
    resumeNote: manifest.resume
      ? (manifest.resume.note ??
        `a run continues from its last checkpoint with ${Object.keys(manifest.resume.set).join(", ")} set`)
      : `the ${manifest.name} stack's manifest has no resume: key`,
  };
}
