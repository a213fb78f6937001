// The audit log: every state-changing command and every refusal, who asked, where, and how it ended.
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";

export interface AuditEntry extends ChannelKey {
  userId: string;
  command: string;
  args: Record<string, unknown>;
  outcome: "ok" | "refused" | "failed";
  detail?: string;
  /** The surface the command came through, when a person's own agent gave it: "mcp". */
  via?: string;
}

export interface AuditRow extends AuditEntry {
  id: number;
  at: number;
}

export interface AuditRepo {
  record(entry: AuditEntry): void;
  latest(limit: number): AuditRow[];
}

interface RawAuditRow {
  id: number;
  at: number;
  platform: string;
  workspace: string;
  channel: string;
  user_id: string;
  command: string;
  args_json: string;
  outcome: AuditEntry["outcome"];
  detail: string | null;
  via: string | null;
}

export function createAuditRepo(db: Db, now: () => number = Date.now): AuditRepo {
  const insert = db.prepare(
    `INSERT INTO audit (at, platform, workspace, channel, user_id, command, args_json, outcome, detail, via)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const select = db.prepare<[number], RawAuditRow>("SELECT * FROM audit ORDER BY id DESC LIMIT ?");
  return {
    record: (e) => {
      insert.run(
        now(),
        e.platform,
        e.workspace,
        e.channel,
        e.userId,
        e.command,
        JSON.stringify(e.args),
        e.outcome,
        e.detail ?? null,
        e.via ?? null,
      );
    },
    latest: (limit) =>
      select.all(limit).map((r) => ({
        id: r.id,
        at: r.at,
        platform: r.platform,
        workspace: r.workspace,
        channel: r.channel,
        userId: r.user_id,
        command: r.command,
        args: JSON.parse(r.args_json) as Record<string, unknown>,
        outcome: r.outcome,
        detail: r.detail ?? undefined,
        ...(r.via ? { via: r.via } : {}),
      })),
  };
}
