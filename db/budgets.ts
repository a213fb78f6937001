// Spending limits per channel and per person, and what runs have used against them, read from the runs table.
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";

export type BudgetKind = "runs" | "concurrent" | "steps" | "gpu-hours";
export type BudgetPeriod = "day" | "week" | "month";

/** Whose spending a limit counts: everyone's in a channel, or one person's in every channel of the workspace. */
export type BudgetScope =
  { kind: "channel"; channel: ChannelKey } | { kind: "person"; channel: ChannelKey; userId: string };

export interface BudgetRow {
  scope: BudgetScope;
  kind: BudgetKind;
  period: BudgetPeriod;
  amount: number;
  setBy: string;
  setAt: number;
}

/** What the runs of one scope have used since a moment. */
export interface BudgetUse {
  runs: number;
  steps: number;
  /** Queued and live runs now (a queued run is admitted: it will run). */
  concurrent: number;
  /** Milliseconds each Slurm run has been running since the moment, for the GPU-hours. */
  slurmMillis: number;
}

interface Row {
  platform: string;
  workspace: string;
  channel: string;
  user_id: string;
  kind: BudgetKind;
  period: BudgetPeriod;
  amount: number;
  set_by: string;
  set_at: number;
}

export interface BudgetsRepo {
  set(row: BudgetRow): void;
  /** True when there was such a limit. */
  clear(scope: BudgetScope, kind: BudgetKind, period?: BudgetPeriod): number;
  /** The channel's limits and the limits of the person in its workspace (all people when userId is absent). */
  limitsFor(channel: ChannelKey, userId?: string): BudgetRow[];
  usedSince(scope: BudgetScope, since: number, now: number): BudgetUse;
}

const keyOf = (scope: BudgetScope): [string, string, string, string] =>
  scope.kind === "channel"
    ? [scope.channel.platform, scope.channel.workspace, scope.channel.channel, ""]
    : [scope.channel.platform, scope.channel.workspace, "", scope.userId];

const LIVE_OR_QUEUED = "('queued', 'starting', 'running', 'stopping')";

export function createBudgetsRepo(db: Db): BudgetsRepo {
  const put = db.prepare(
    `INSERT INTO budgets (platform, workspace, channel, user_id, kind, period, amount, set_by, set_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (platform, workspace, channel, user_id, kind, period)
     DO UPDATE SET amount = excluded.amount, set_by = excluded.set_by, set_at = excluded.set_at`,
  );
  const remove = db.prepare(
    "DELETE FROM budgets WHERE platform = ? AND workspace = ? AND channel = ? AND user_id = ? AND kind = ? AND (? IS NULL OR period = ?)",
  );
  const limits = db.prepare<[string, string, string, string | null, string | null], Row>(
    `SELECT * FROM budgets WHERE platform = ? AND workspace = ?
       AND ((channel = ? AND user_id = '') OR (channel = '' AND (? IS NULL OR user_id = ?)))
     ORDER BY user_id, kind, period`,
  );
  // Both scopes read the same columns; only the WHERE differs.
  const useSql = (where: string) =>
    db.prepare<
      [{ platform: string; workspace: string; key: string; since: number; now: number }],
      { runs: number; steps: number; concurrent: number; millis: number }
    >(
      `SELECT
         COALESCE(SUM(created_at >= @since), 0) AS runs,
         COALESCE(SUM(CASE WHEN created_at >= @since THEN COALESCE(total_steps, 0) END), 0) AS steps,
         COALESCE(SUM(status IN ${LIVE_OR_QUEUED}), 0) AS concurrent,
         COALESCE(SUM(CASE WHEN backend = 'slurm' AND started_at IS NOT NULL
                            AND COALESCE(ended_at, @now) > @since
                       THEN MIN(COALESCE(ended_at, @now), @now) - MAX(started_at, @since) END), 0) AS millis
       FROM runs WHERE platform = @platform AND workspace = @workspace AND ${where}
         AND (created_at >= @since OR status IN ${LIVE_OR_QUEUED} OR COALESCE(ended_at, @now) > @since)`,
    );
  const channelUse = useSql("channel = @key");
  const personUse = useSql("created_by = @key");

  return {
    set(row) {
      put.run(...keyOf(row.scope), row.kind, row.period, row.amount, row.setBy, row.setAt);
    },
    clear(scope, kind, period) {
      return remove.run(...keyOf(scope), kind, period ?? null, period ?? null).changes;
    },
    limitsFor(channel, userId) {
      return limits
        .all(channel.platform, channel.workspace, channel.channel, userId ?? null, userId ?? null)
        .map((r) => ({
          scope: r.user_id
            ? { kind: "person" as const, channel, userId: r.user_id }
            : { kind: "channel" as const, channel },
          kind: r.kind,
          period: r.period,
          amount: r.amount,
          setBy: r.set_by,
          setAt: r.set_at,
        }));
    },
    usedSince(scope, since, now) {
      const [platform, workspace, channel, userId] = keyOf(scope);
      const stmt = scope.kind === "channel" ? channelUse : personUse;
      const r = stmt.get({ platform, workspace, key: scope.kind === "channel" ? channel : userId, since, now })!;
      return { runs: r.runs, steps: r.steps, concurrent: r.concurrent, slurmMillis: r.millis };
    },
  };
}
