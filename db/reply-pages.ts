// The pages of a reply too long for one message, kept server-side so Next/Previous keep working after a restart.
import { randomBytes } from "node:crypto";
import type { Reply } from "../src/reply.ts";
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";
import { readStoredReply } from "./stored-reply.ts";

export interface ReplyPagesRow {
  id: string;
  channel: ChannelKey;
  pages: Reply[];
  /** The line under every page (who ran which command), as the first message showed it. */
  footer?: string;
  createdAt: number;
}

export interface ReplyPagesRepo {
  /** Keeps the pages and returns their id; rows older than the retention are deleted on the way. */
  save(channel: ChannelKey, pages: readonly Reply[], footer?: string): string;
  get(id: string): ReplyPagesRow | undefined;
}

/** A paged message older than this answers its buttons with "run the command again". */
export const REPLY_PAGES_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** What page ids look like (16 random bytes, base64url); anything else is not looked up. */
export const REPLY_PAGES_ID = /^[A-Za-z0-9_-]{22}$/;

interface RawRow {
  id: string;
  platform: string;
  workspace: string;
  channel: string;
  pages_json: string;
  footer: string | null;
  created_at: number;
}

export function createReplyPagesRepo(db: Db, now: () => number = Date.now): ReplyPagesRepo {
  const insert = db.prepare(
    "INSERT INTO reply_pages (id, platform, workspace, channel, pages_json, footer, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const select = db.prepare<[string], RawRow>("SELECT * FROM reply_pages WHERE id = ?");
  const prune = db.prepare("DELETE FROM reply_pages WHERE created_at < ?");
  return {
    save(channel, pages, footer) {
      const id = randomBytes(16).toString("base64url");
      const at = now();
      prune.run(at - REPLY_PAGES_RETENTION_MS);
      insert.run(id, channel.platform, channel.workspace, channel.channel, JSON.stringify(pages), footer ?? null, at);
      return id;
    },
    get(id) {
      if (!REPLY_PAGES_ID.test(id)) return undefined;
      const r = select.get(id);
      if (!r) return undefined;
      return {
        id: r.id,
        channel: { platform: r.platform, workspace: r.workspace, channel: r.channel },
        pages: (JSON.parse(r.pages_json) as unknown[]).map(readStoredReply),
        ...(r.footer !== null ? { footer: r.footer } : {}),
        createdAt: r.created_at,
      };
    },
  };
}
