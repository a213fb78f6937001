// The shared core of records answered once (confirmations, approvals): read by a well-formed id, answer by compare-and-set.
import type { Db } from "./open-database.ts";

/** A new row's answer columns: pending, answered by no one yet. */
export const UNANSWERED = {
  state: "pending",
  answered_by: null,
  answered_by_name: null,
  answered_at: null,
} as const;

export interface AnsweredOnce<Raw> {
  /** The stored row, or undefined for an id of the wrong shape (never looked up) or an unknown one. */
  get(id: string): Raw | undefined;
  /**
   * Moves a pending, unexpired row to `state`: one compare-and-set UPDATE, so of any number of answers (from any
   * connection or process on the same file) exactly one returns true. False changes nothing.
   */
  answer(id: string, state: string, by: { id: string; name?: string }): boolean;
}

export function answeredOnce<Raw>(
  db: Db,
  table: "confirmations" | "approvals",
  idShape: RegExp,
  now: () => number,
): AnsweredOnce<Raw> {
  const select = db.prepare<[string], Raw>(`SELECT * FROM ${table} WHERE id = ?`);
  const update = db.prepare(
    `UPDATE ${table} SET state = ?, answered_by = ?, answered_by_name = ?, answered_at = ?
     WHERE id = ? AND state = 'pending' AND expires_at > ?`,
  );
  return {
    get: (id) => (idShape.test(id) ? select.get(id) : undefined),
    answer(id, state, by) {
      if (!idShape.test(id)) return false;
      const at = now();
      return update.run(state, by.id, by.name ?? null, at, id, at).changes === 1;
    },
  };
}
