// The training watchdog's memory of each run: which signals are in an open episode (each fires once per episode), the
// moments new steps were seen (its step times), and the signals a person chose to ignore for the run.
import type { Db } from "./open-database.ts";

export interface WatchdogState {
  /** Per signal in an open episode: the episode's key (the step or moment it began). */
  open: Record<string, string>;
  /** [step, ms since the epoch] when each new step was first seen, oldest first, bounded. */
  seen: Array<[number, number]>;
  /** Signals a person ignored for this run (the alert's Ignore). */
  ignored: string[];
}

export interface WatchdogStateRepo {
  get(runId: string): WatchdogState;
  set(runId: string, state: WatchdogState, at: number): void;
}

const fresh = (): WatchdogState => ({ open: {}, seen: [], ignored: [] });

export function createWatchdogStateRepo(db: Db): WatchdogStateRepo {
  const get = db.prepare<[string], { state_json: string }>("SELECT state_json FROM watchdog_state WHERE run_id = ?");
  const upsert = db.prepare(
    `INSERT INTO watchdog_state (run_id, state_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (run_id) DO UPDATE SET state_json = excluded.state_json, updated_at = excluded.updated_at`,
  );
  return {
    get(runId) {
      const row = get.get(runId);
      if (!row) return fresh();
      const stored = JSON.parse(row.state_json) as Partial<WatchdogState>;
      return { ...fresh(), ...stored };
    },
    set: (runId, state, at) => void upsert.run(runId, JSON.stringify(state), at),
  };
}
