// Button custom_ids (at most 100 characters): a prompt's Confirm / Cancel carry its confirmation id (the record is in
// SQLite, so they survive a restart); short commands go inline, long ones or ones holding a secret in a small memory map.
import { randomBytes } from "node:crypto";
import type { ReplyButton } from "../../src/reply.ts";
import { DISCORD } from "./discord-limits.ts";

export type ButtonAction =
  | { kind: "run"; command: string }
  | { kind: "answer"; confirmation: string; answer: "confirm" | "cancel" }
  | { kind: "page"; id: string; index: number }
  | { kind: "share"; id: string; index: number }
  | { kind: "expired" };

export interface ButtonStore {
  /** The custom_id for a button; "" when it cannot be one (a Confirm or Cancel that answers no prompt). */
  idFor(button: ReplyButton): string;
  /** What a clicked custom_id stands for; undefined when it is not one of ours. */
  resolve(customId: string): ButtonAction | undefined;
}

export interface ButtonStoreOptions {
  redact: (text: string) => string;
  /** Command buttons kept in memory; the oldest go first. */
  max?: number;
}

const PREFIX = "rl:";

export function createButtonStore({ redact, max = 1000 }: ButtonStoreOptions): ButtonStore {
  const entries = new Map<string, string>();

  const remember = (command: string): string => {
    const key = randomBytes(8).toString("base64url");
    entries.set(key, command);
    while (entries.size > max) entries.delete(entries.keys().next().value as string);
    return `${PREFIX}k:${key}`;
  };

  return {
    idFor(button) {
      // Pages live in SQLite (db/reply-pages.ts), so these keep working after a restart.
      if (button.kind === "page") return `${PREFIX}p:${button.page.index}:${button.page.id}`;
      if (button.kind === "share") return `${PREFIX}s:${button.page.index}:${button.page.id}`;
      if (button.kind === "confirm" || button.kind === "cancel") {
        // An answer to no prompt cannot be a button.
        if (button.confirmation === "") return "";
        return `${PREFIX}${button.kind === "confirm" ? "y" : "n"}:${button.confirmation}`;
      }
      // A command holding a secret stays server-side: custom_ids travel through Discord.
      const inline = `${PREFIX}r:${button.command}`;
      if (inline.length <= DISCORD.customId && redact(button.command) === button.command) return inline;
      return remember(button.command);
    },
    resolve(customId) {
      if (!customId.startsWith(PREFIX)) return undefined;
      const kind = customId.slice(PREFIX.length, PREFIX.length + 2);
      const rest = customId.slice(PREFIX.length + 2);
      if (kind === "y:") return { kind: "answer", confirmation: rest, answer: "confirm" };
      if (kind === "n:") return { kind: "answer", confirmation: rest, answer: "cancel" };
      if (kind === "r:") return { kind: "run", command: rest };
      if (kind === "p:" || kind === "s:") {
        const page = /^(\d{1,4}):([A-Za-z0-9_-]{22})$/.exec(rest);
        if (!page) return undefined;
        return { kind: kind === "p:" ? "page" : "share", id: page[2]!, index: Number(page[1]) };
      }
      if (kind === "k:") {
        const command = entries.get(rest);
        return command === undefined ? { kind: "expired" } : { kind: "run", command };
      }
      return undefined;
    },
  };
}
