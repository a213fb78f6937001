// Confirmation prompts kept server-side: who asked for which command where, until when, and the one answer it got.
import { randomBytes } from "node:crypto";
import { RlError } from "../src/errors.ts";
import { answeredOnce } from "./answer-once.ts";
import {
  askedCommandFromRaw,
  newAskedCommandRaw,
  type AskedCommand,
  type AskedCommandRequest,
  type RawAskedCommand,
} from "./asked-command.ts";
import type { Db } from "./open-database.ts";

export type ConfirmationState = "pending" | "confirmed" | "cancelled";
export type ConfirmationAnswer = Exclude<ConfirmationState, "pending">;

export interface ConfirmationRow extends AskedCommand<ConfirmationState> {
  /** Random and url-safe (128 bits): it travels in button values and custom_ids, and is the only thing they carry. */
  id: string;
}

export interface NewConfirmation extends AskedCommandRequest {
  args: Record<string, unknown>;
}

export interface Answerer {
  id: string;
  name?: string;
}

export interface ConfirmationsRepo {
  /** Records a pending prompt; throws an RlError("USAGE") when its text or arguments hold one of the bot's secrets. */
  create(confirmation: NewConfirmation): ConfirmationRow;
  get(id: string): ConfirmationRow | undefined;
  /**
   * Answers a pending, unexpired prompt: one compare-and-set UPDATE, so of any number of clicks (from any
   * connection or process on the same file) exactly one returns true. False changes nothing.
   */
  claim(id: string, answer: ConfirmationAnswer, by: Answerer): boolean;
}

export interface ConfirmationsOptions {
  now?: () => number;
  /** How long a prompt can be answered. */
  ttlMs: number;
  /** The bot's redactor: anything it would change is a secret and is never written to the table. */
  redact: (text: string) => string;
}

/** Rows are kept this long past their expiry, so a late click still hears who answered; then they are deleted. */
export const CONFIRMATION_RETENTION_MS = 24 * 60 * 60 * 1000;

type RawRow = RawAskedCommand<ConfirmationState>;

/** A fresh confirmation id: 16 random bytes, base64url (22 characters). */
export function newConfirmationId(): string {
  return randomBytes(16).toString("base64url");
}

/** What confirmation ids look like; anything else is not looked up. */
export const CONFIRMATION_ID = /^[A-Za-z0-9_-]{22}$/;

export function createConfirmationsRepo(
  db: Db,
  { now = Date.now, ttlMs, redact }: ConfirmationsOptions,
): ConfirmationsRepo {
  const insert = db.prepare(
    `INSERT INTO confirmations (id, platform, workspace, channel, asker_id, asker_name, command, command_text, args_json, created_at, expires_at, state)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
  );
  const once = answeredOnce<RawRow>(db, "confirmations", CONFIRMATION_ID, now);
  const prune = db.prepare("DELETE FROM confirmations WHERE expires_at < ?");

  return {
    create(c) {
      const argsJson = JSON.stringify(c.args);
      const stored = [c.commandText, argsJson, c.askerId, c.askerName ?? ""];
      if (stored.some((text) => redact(text) !== text)) {
        throw new RlError(
          "USAGE",
          "This command holds one of the bot's secrets, so it cannot be kept for a Confirm button. Nothing ran; leave the secret out.",
        );
      }
      const at = now();
      const row = newAskedCommandRaw(newConfirmationId(), c, argsJson, at, ttlMs);
      db.transaction(() => {
        prune.run(at - CONFIRMATION_RETENTION_MS);
        insert.run(
          row.id,
          row.platform,
          row.workspace,
          row.channel,
          row.asker_id,
          row.asker_name,
          row.command,
          row.command_text,
          row.args_json,
          row.created_at,
          row.expires_at,
        );
      })();
      return askedCommandFromRaw(row);
    },
    get(id) {
      const row = once.get(id);
      return row ? askedCommandFromRaw(row) : undefined;
    },
    claim: (id, state, by) => once.answer(id, state, by),
  };
}
