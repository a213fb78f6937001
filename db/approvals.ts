// Approval requests kept server-side: a start someone asked for that waits for another person's Approve or Deny.
import { randomBytes } from "node:crypto";
import { answeredOnce } from "./answer-once.ts";
import { askedCommandFromRaw, newAskedCommandRaw, type AskedCommand, type RawAskedCommand } from "./asked-command.ts";
import type { Db } from "./open-database.ts";
import type { OutboxRepo } from "./outbox.ts";
import type { Reply } from "../src/reply.ts";

export type ApprovalState = "pending" | "approved" | "denied";
export type ApprovalDecision = Exclude<ApprovalState, "pending">;

export interface ApprovalRow extends AskedCommand<ApprovalState> {
  /** Short enough to type in `/rl approve <id>`; guessing one gains nothing, since only a listed approver may answer. */
  id: string;
  /** Where the asker was (a thread), so the run's answer goes back there. */
  thread?: string;
  /**
   * The asker's platform roles at the time, so the approved command is authorised as they were; and whether their own
   * agent asked (remote over HTTP: their listed role, not the terminal's; via "mcp": the run says "through their agent").
   */
  askerRoles: { roles?: string[]; roleIds?: string[]; roleNames?: string[]; remote?: boolean; via?: "mcp" };
  /** Which part of RL_APPROVE_WHEN this start matched ("steps>=1000"). */
  reason: string;
  /** The posted request (the platform's message id, and the thread channel it is in), once the adapter posted it. */
  message?: { id: string; thread?: string };
}

export type NewApproval = Omit<ApprovalRow, "id" | "createdAt" | "expiresAt" | "state" | "message">;

export interface ApprovalsRepo {
  create(request: NewApproval): ApprovalRow;
  get(id: string): ApprovalRow | undefined;
  /**
   * Decides a pending, unexpired request: one compare-and-set UPDATE, so of any number of answers (from any process
   * on the same file) exactly one returns true. False changes nothing.
   */
  decide(id: string, decision: ApprovalDecision, by: { id: string; name?: string }): boolean;
  /** Where the request was posted, so its message can be edited once it is decided or expires. */
  recordMessage(id: string, message: { id: string; thread?: string }): void;
  /**
   * Queues the edit of every request decided or expired whose edit is not queued yet (expiry has no event of its
   * own), and returns how many. Each is queued once, ever.
   */
  closeFinished(): number;
}

/** How a decided or expired request's message reads: the request's own words, who decided it and when, no buttons. */
export type ClosedReply = (row: ApprovalRow) => Reply;

interface RawApproval extends RawAskedCommand<ApprovalState> {
  thread: string | null;
  asker_roles_json: string;
  reason: string;
  message_id: string | null;
  message_thread: string | null;
  edit_queued: number;
}

/** What approval ids look like; anything else is not looked up. */
export const APPROVAL_ID = /^[a-z0-9]{10}$/;

/** Decided and expired requests are kept this long, so a late answer still hears what became of it. */
const APPROVAL_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

function fromRaw(r: RawApproval): ApprovalRow {
  return {
    ...askedCommandFromRaw(r),
    ...(r.thread ? { thread: r.thread } : {}),
    askerRoles: JSON.parse(r.asker_roles_json) as ApprovalRow["askerRoles"],
    reason: r.reason,
    ...(r.message_id
      ? { message: { id: r.message_id, ...(r.message_thread ? { thread: r.message_thread } : {}) } }
      : {}),
  };
}

/** Ten lower-case letters and digits, short enough to type: about 51 bits (each random byte taken mod 36). */
function newApprovalId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join("");
}

export interface ApprovalsOptions {
  now?: () => number;
  ttlMs: number;
  /** With both, a decided or expired request's message is edited through the outbox (a crash cannot lose the edit). */
  outbox?: OutboxRepo;
  closedReply?: ClosedReply;
}

export function createApprovalsRepo(db: Db, options: ApprovalsOptions): ApprovalsRepo {
  const now = options.now ?? Date.now;
  const insert = db.prepare(
    `INSERT INTO approvals (id, platform, workspace, channel, thread, asker_id, asker_name, asker_roles_json, command,
       command_text, args_json, reason, created_at, expires_at, state)
     VALUES (@id, @platform, @workspace, @channel, @thread, @asker_id, @asker_name, @asker_roles_json, @command,
       @command_text, @args_json, @reason, @created_at, @expires_at, 'pending')`,
  );
  const once = answeredOnce<RawApproval>(db, "approvals", APPROVAL_ID, now);
  const prune = db.prepare("DELETE FROM approvals WHERE expires_at < ?");
  const setMessage = db.prepare("UPDATE approvals SET message_id = ?, message_thread = ? WHERE id = ?");
  const claimEdit = db.prepare("UPDATE approvals SET edit_queued = 1 WHERE id = ? AND edit_queued = 0");
  const finished = db.prepare<[number], { id: string }>(
    `SELECT id FROM approvals WHERE edit_queued = 0 AND (state != 'pending' OR expires_at <= ?)
       AND (message_id IS NOT NULL OR platform = 'console') ORDER BY expires_at LIMIT 100`,
  );

  /**
   * Claims the request's edit and queues it in the caller's transaction. A console has no message to edit: the closed
   * request is printed as a notice. A Slack or Discord request whose message is not recorded yet is left for
   * recordMessage (posting it and recording it are not one step), or for ever when it was only shown to its asker.
   */
  const queueEdit = (id: string): boolean => {
    const raw = once.get(id);
    if (!raw || !options.outbox || !options.closedReply) return false;
    if (!raw.message_id && raw.platform !== "console") return false;
    if (claimEdit.run(id).changes !== 1) return false;
    const row = fromRaw(raw);
    const channel = row.channel;
    const thread = row.message?.thread ?? (row.message ? undefined : row.thread);
    return options.outbox.enqueue(
      {
        dedupeKey: `approval:${id}:closed`,
        target: { channel, ...(thread ? { thread } : {}) },
        kind: "notice",
        reply: options.closedReply(row),
        ...(row.message ? { edit: row.message.id } : {}),
      },
      now(),
    );
  };
  return {
    create(request) {
      const at = now();
      const raw: RawApproval = {
        ...newAskedCommandRaw(newApprovalId(), request, JSON.stringify(request.args), at, options.ttlMs),
        thread: request.thread ?? null,
        asker_roles_json: JSON.stringify(request.askerRoles),
        reason: request.reason,
        message_id: null,
        message_thread: null,
        edit_queued: 0,
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
    // The answer and its message's edit commit together: a crash loses neither, nor leaves one without the other.
    decide: (id, decision, by) =>
      db.transaction(() => {
        const won = once.answer(id, decision, by);
        if (won) queueEdit(id);
        return won;
      })(),
    // Decided (or expired) before its message was recorded: the edit is queued now, in the same transaction.
    recordMessage(id, message) {
      if (!APPROVAL_ID.test(id)) return;
      db.transaction(() => {
        setMessage.run(message.id, message.thread ?? null, id);
        const raw = once.get(id);
        if (raw && (raw.state !== "pending" || raw.expires_at <= now())) queueEdit(id);
      })();
    },
    closeFinished() {
      let queued = 0;
      for (const { id } of finished.all(now())) if (db.transaction(() => queueEdit(id))()) queued++;
      return queued;
    },
  };
}
