// Button custom_ids (at most 100 characters): short commands inline, confirmations and long ones in a small memory map.
import { randomBytes } from "node:crypto";
import type { ReplyButton } from "../src/reply.ts";
import { DISCORD } from "./discord-limits.ts";

export type ButtonAction = { kind: "run"; command: string; confirmed: boolean } | { kind: "cancel" } | { kind: "expired" };

export interface ButtonStore {
  idFor(button: ReplyButton): string;
  /** What a clicked custom_id stands for (a confirmation only once); undefined when it is not one of ours. */
  resolve(customId: string): ButtonAction | undefined;
}

export interface ButtonStoreOptions {
  redact: (text: string) => string;
  /** Entries kept; the oldest go first (a prompt is answered within minutes or never). */
  max?: number;
}

const PREFIX = "rl:";

export function createButtonStore({ redact, max = 1000 }: ButtonStoreOptions): ButtonStore {
  const entries = new Map<string, { command: string; confirmed: boolean }>();

  const remember = (command: string, confirmed: boolean): string => {
    const key = randomBytes(8).toString("base64url");
    entries.set(key, { command, confirmed });
    while (entries.size > max) entries.delete(entries.keys().next().value as string);
    return `${PREFIX}k:${key}`;
  };

  return {
    idFor(button) {
      if (button.action === "cancel") return `${PREFIX}n:${randomBytes(4).toString("base64url")}`;
      // Confirmations stay server-side, as does any command holding a secret: custom_ids travel through Discord.
      const inline = `${PREFIX}r:${button.command}`;
      if (!button.confirmed && inline.length <= DISCORD.customId && redact(button.command) === button.command) return inline;
      return remember(button.command, button.confirmed === true);
    },
    resolve(customId) {
      if (!customId.startsWith(PREFIX)) return undefined;
      const kind = customId.slice(PREFIX.length, PREFIX.length + 2);
      const rest = customId.slice(PREFIX.length + 2);
      if (kind === "n:") return { kind: "cancel" };
      if (kind === "r:") return { kind: "run", command: rest, confirmed: false };
      if (kind === "k:") {
        const entry = entries.get(rest);
        if (!entry) return { kind: "expired" };
        // A confirmation is used once: a double click must not start two runs.
        if (entry.confirmed) entries.delete(rest);
        return { kind: "run", ...entry };
      }
      return undefined;
    },
  };
}
