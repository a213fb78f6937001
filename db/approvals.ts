// Approval requests kept server-side: a start someone asked for that waits for another person's Approve or Deny.
import { randomBytes } from "node:crypto";
import { answeredOnce, UNANSWERED } from "./answer-once.ts";
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";

export type ApprovalState = "pending" | "approved" | "denied";
export type ApprovalDecision = Exclude<ApprovalState, "pending">;

export interface ApprovalRow {
  /** Short enough to type in `/rl approve <id>`; guessing one gains nothing, since only a listed approver may answer. */
  id: string;
  channel: ChannelKey;
  /** Where the asker was (a thread), so the run's answer goes back there. */
  thread?: string;
  askerId: string;
  askerName?: string;
  /** The asker's platform roles at the time, so the approved command is authorised as they were. */
  askerRoles: { roles?: string[]; roleIds?: string[]; roleNames?: string[] };
  /** The registry name of the command. */
  command: string;
  /** The command as a person reads it: shown and audited. */
  commandText: string;
  /** The arguments exactly as the asker gave them; an approved request runs the command with these. */
  args: Record<string, unknown>;
  /** Which part of RL_APPROVE_WHEN this start matched ("steps>=1000"). */
  reason: string;
  createdAt: number;
  expiresAt: number;
  state: ApprovalState;
  answeredBy?: string;
  answeredByName?: string;
  answeredAt?: number;
}

export type NewApproval = Omit<ApprovalRow, "id" | "createdAt" | "expiresAt" | "state">;

export interface ApprovalsRepo {
  create(request: NewApproval): ApprovalRow;
  get(id: string): ApprovalRow | undefined;
  /**
   * Decides a pending, unexpired request: one compare-and-set UPDATE, so of any number of answers (from any process
   * on the same file) exactly one returns true. False changes nothing.
   */
  decide(id: string, decision: ApprovalDecision, by: { id: string; name?: string }): boolean;
}

interface RawApproval {
  id: string;
  platform: string;
  workspace: string;
  channel: string;
  thread: string | null;
  asker_id: string;
  asker_name: string | null;
  asker_roles_json: string;
  command: string;
  command_text: string;
  args_json: string;
  reason: string;
  created_at: number;
  expires_at: number;
  state: ApprovalState;
  answered_by: string | null;
  answered_by_name: string | null;
  answered_at: number | null;
}

/** What approval ids look like; anything else is not looked up. */
export const APPROVAL_ID = /^[a-z0-9]{10}$/;

/** Decided and expired requests are kept this long, so a late answer still hears what became of it. */
const APPROVAL_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

function fromRaw(r: RawApproval): ApprovalRow {
  return {
    id: r.id,
    channel: { platform: r.platform, workspace: r.workspace, channel: r.channel },
    ...(r.thread ? { thread: r.thread } : {}),
    askerId: r.asker_id,
    askerName: r.asker_name ?? undefined,
    askerRoles: JSON.parse(r.asker_roles_json) as ApprovalRow["askerRoles"],
    command: r.command,
    commandText: r.command_text,
    args: JSON.parse(r.args_json) as Record<string, unknown>,
    reason: r.reason,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    state: r.state,
    answeredBy: r.answered_by ?? undefined,
    answeredByName: r.answered_by_name ?? undefined,
    answeredAt: r.answered_at ?? undefined,
  };
}

/** Ten lower-case letters and digits, short enough to type: about 51 bits (each random byte taken mod 36). */
function newApprovalId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join("");
}

export function createApprovalsRepo(db: Db, options: { now?: () => number; ttlMs: number }): ApprovalsRepo {
  const now = options.now ?? Date.now;
  const insert = db.prepare(
    `INSERT INTO approvals (id, platform, workspace, channel, thread, asker_id, asker_name, asker_roles_json, command,
       command_text, args_json, reason, created_at, expires_at, state)
     VALUES (@id, @platform, @workspace, @channel, @thread, @asker_id, @asker_name, @asker_roles_json, @command,
       @command_text, @args_json, @reason, @created_at, @expires_at, 'pending')`,
  );
  const once = answeredOnce<RawApproval>(db, "approvals", APPROVAL_ID, now);
  const prune = db.prepare("DELETE FROM approvals WHERE expires_at < ?");

  return {
    create(request) {
      const at = now();
      const raw: RawApproval = {
        id: newApprovalId(),
        platform: request.channel.platform,
        workspace: request.channel.workspace,
        channel: request.channel.channel,
        thread: request.thread ?? null,
        asker_id: request.askerId,
        asker_name: request.askerName ?? null,
        asker_roles_json: JSON.stringify(request.askerRoles),
        command: request.command,
        command_text: request.commandText,
        args_json: JSON.stringify(request.args),
        reason: request.reason,
        created_at: at,
        expires_at: at + options.ttlMs,
        ...UNANSWERED,
      };
      db.transaction(() => {
        prune.run(at - APPROVAL_RETENTION_MS);
        insert.run(raw);
      })();
      return fromRaw(raw);
    },
    get(id) {
      const row = once.get(id);
      return row ? fromRaw(row) : undefined;
    },
    decide: (id, decision, by) => once.answer(id, decision, by),
  };
}
