// Which ended runs still have their files (logs, run config, run folder) in the data folder, and the note a run keeps
// once they were pruned or archived.
import type { Db } from "./open-database.ts";

const ENDED = "('stopped', 'completed', 'failed', 'lost')";

export interface RunWithFiles {
  id: string;
  status: string;
  createdAt: number;
  endedAt?: number;
  configPath?: string;
  /** Each process's log file, as recorded when it was started. */
  logPaths: string[];
}

export interface RunFilesRepo {
  /** Ended runs whose files are still there, ended (or, with no end recorded, created) before `cutoff`, oldest first. */
  endedBefore(cutoff: number, limit: number): RunWithFiles[];
  /** Note that the run's files went (to `archivedTo`, or deleted); false when it was noted already or is live again. */
  markGone(id: string, at: number, archivedTo: string | undefined): boolean;
  /** When the run's files were pruned, and where to, if they were. */
  noteOf(id: string): { prunedAt: number; archivedTo?: string } | undefined;
}

export function createRunFilesRepo(db: Db): RunFilesRepo {
  // An end is never before the start: created_at < cutoff narrows through the index of runs that still have files.
  const ended = db.prepare<
    [{ cutoff: number; limit: number }],
    { id: string; status: string; created_at: number; ended_at: number | null; config_path: string | null }
  >(
    `SELECT id, status, created_at, ended_at, config_path FROM runs
     WHERE files_pruned_at IS NULL AND created_at < @cutoff AND COALESCE(ended_at, created_at) < @cutoff AND status IN ${ENDED}
     ORDER BY created_at LIMIT @limit`,
  );
  const logs = db.prepare<[string], { log_path: string }>("SELECT log_path FROM run_processes WHERE run_id = ?");
  const mark = db.prepare(
    `UPDATE runs SET files_pruned_at = ?, files_archived_to = ? WHERE id = ? AND files_pruned_at IS NULL AND status IN ${ENDED}`,
  );
  const note = db.prepare<[string], { files_pruned_at: number | null; files_archived_to: string | null }>(
    "SELECT files_pruned_at, files_archived_to FROM runs WHERE id = ?",
  );
  return {
    endedBefore: (cutoff, limit) =>
      ended.all({ cutoff, limit }).map((r) => ({
        id: r.id,
        status: r.status,
        createdAt: r.created_at,
        endedAt: r.ended_at ?? undefined,
        configPath: r.config_path ?? undefined,
        logPaths: logs.all(r.id).map((l) => l.log_path),
      })),
    markGone: (id, at, archivedTo) => mark.run(at, archivedTo ?? null, id).changes === 1,
    noteOf(id) {
      const r = note.get(id);
      if (!r || r.files_pruned_at === null) return undefined;
      return { prunedAt: r.files_pruned_at, ...(r.files_archived_to ? { archivedTo: r.files_archived_to } : {}) };
    },
  };
}
