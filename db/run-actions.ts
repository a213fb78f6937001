// Process actions a run's transition owes (stop env, then trainer, then api): written with the transition, marked done after.
import type { Component } from "./run-processes.ts";
import type { Db } from "./open-database.ts";

export interface OwedAction {
  id: number;
  runId: string;
  action: "stop";
  component: Component;
  createdAt: number;
}

interface RawAction {
  id: number;
  run_id: string;
  action: "stop";
  component: Component;
  created_at: number;
}

export interface RunActionsRepo {
  /** Owe stopping these components, in this order. Call inside the transition's transaction. */
  oweStops(runId: string, components: readonly Component[], at: number): void;
  /** Actions not yet done, oldest first; of one run, or of all runs. */
  pending(runId?: string): OwedAction[];
  markDone(id: number, at: number): void;
}

const toAction = (r: RawAction): OwedAction => ({
  id: r.id,
  runId: r.run_id,
  action: r.action,
  component: r.component,
  createdAt: r.created_at,
});

export function createRunActionsRepo(db: Db): RunActionsRepo {
  const insert = db.prepare("INSERT INTO run_actions (run_id, action, component, created_at) VALUES (?, 'stop', ?, ?)");
  const ofRun = db.prepare<[string], RawAction>(
    "SELECT * FROM run_actions WHERE done_at IS NULL AND run_id = ? ORDER BY id",
  );
  const all = db.prepare<[], RawAction>("SELECT * FROM run_actions WHERE done_at IS NULL ORDER BY id");
  const done = db.prepare("UPDATE run_actions SET done_at = ? WHERE id = ? AND done_at IS NULL");
  return {
    oweStops: (runId, components, at) => {
      for (const component of components) insert.run(runId, component, at);
    },
    pending: (runId) => (runId === undefined ? all.all() : ofRun.all(runId)).map(toAction),
    markDone: (id, at) => void done.run(at, id),
  };
}
