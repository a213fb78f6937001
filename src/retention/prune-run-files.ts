// Old runs' files (their processes' logs, the run config, the run's own folder with samples and checkpoints) deleted,
// or moved into an archive folder, run by run: each run is noted as pruned (and where to) before its files go, so a
// run never loses its files without its row saying so; the row itself stays. Only files inside the data folder.
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import type { RunFilesRepo, RunWithFiles } from "../../db/run-files.ts";
import { runFolderOf } from "../stacks/log-path.ts";

export interface PruneOptions {
  dataDir: string;
  /** Runs that ended before this moment. */
  cutoff: number;
  now: number;
  /** List what would go, change nothing. */
  dryRun: boolean;
  /** Move the files into `<archiveDir>/<run id>/` instead of deleting them. */
  archiveDir?: string;
  /** At most this many runs in one pass (the rest in the next). */
  limit?: number;
}

export interface PrunedRun {
  id: string;
  status: string;
  endedAt?: number;
  files: Array<{ path: string; bytes: number }>;
  bytes: number;
}

export interface PruneResult {
  runs: PrunedRun[];
  bytes: number;
  dryRun: boolean;
  archiveDir?: string;
}

/** Bytes under `target` (a file, or a folder's files), 0 when it is gone. */
function sizeOf(target: string): number {
  let stat;
  try {
    stat = lstatSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(target).reduce((sum, name) => sum + sizeOf(path.join(target, name)), 0);
}

const inside = (dataDir: string, file: string) => {
  const relative = path.relative(dataDir, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
};

/** The run's files that are there, inside the data folder (a log recorded elsewhere is not the bot's to remove). */
function filesOf(run: RunWithFiles, dataDir: string): Array<{ path: string; bytes: number }> {
  const candidates = [...run.logPaths, run.configPath, runFolderOf(dataDir, run.id)].filter(
    (file): file is string => file !== undefined && inside(dataDir, path.resolve(dataDir, file)),
  );
  return [...new Set(candidates.map((file) => path.resolve(dataDir, file)))]
    .filter((file) => existsSync(file))
    .map((file) => ({ path: file, bytes: sizeOf(file) }));
}

/** Move `file` into `folder` (renamed where it can be, else copied then removed: another disk). */
function moveInto(file: string, folder: string): void {
  const target = path.join(folder, path.basename(file));
  try {
    renameSync(file, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
    cpSync(file, target, { recursive: true, errorOnExist: true, force: false });
    rmSync(file, { recursive: true, force: true });
  }
}

export function pruneRunFiles(repo: RunFilesRepo, options: PruneOptions): PruneResult {
  const runs: PrunedRun[] = [];
  const archiveDir = options.archiveDir ? path.resolve(options.archiveDir) : undefined;
  for (const run of repo.endedBefore(options.cutoff, options.limit ?? 10_000)) {
    const files = filesOf(run, options.dataDir);
    const pruned = {
      id: run.id,
      status: run.status,
      endedAt: run.endedAt,
      files,
      bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    };
    if (options.dryRun) {
      runs.push(pruned);
      continue;
    }
    const folder = archiveDir ? path.join(archiveDir, run.id) : undefined;
    // Noted first: a run resumed meanwhile is live again and keeps its files; a pass killed after the note leaves
    // files behind, never a run without its note.
    if (!repo.markGone(run.id, options.now, folder)) continue;
    if (folder) mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (const file of files) {
      if (folder) moveInto(file.path, folder);
      else rmSync(file.path, { recursive: true, force: true });
    }
    runs.push(pruned);
  }
  return { runs, bytes: runs.reduce((sum, r) => sum + r.bytes, 0), dryRun: options.dryRun, archiveDir };
}
