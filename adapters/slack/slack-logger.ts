// Bolt's Logger interface over the bot's structured logger, so Bolt and the Web API client log like everything else.
import { LogLevel } from "@slack/bolt";
import type { Logger as BoltLogger } from "@slack/bolt";
import type { Logger } from "../../src/log.ts";

function message(parts: unknown[]): { message: string; context: Record<string, unknown> } {
  const errors = parts.filter((p): p is Error => p instanceof Error);
  const text = parts
    .filter((p) => !(p instanceof Error))
    .map((p) => (typeof p === "string" ? p : JSON.stringify(p)))
    .join(" ");
  return { message: text || errors[0]?.message || "slack", context: errors[0] ? { err: errors[0] } : {} };
}

export function createSlackLogger(log: Logger, level: LogLevel = LogLevel.INFO): BoltLogger {
  let current = level;
  let name = "slack";
  const emit = (at: "debug" | "info" | "warn" | "error", parts: unknown[]) => {
    const { message: text, context } = message(parts);
    log[at](text, { source: name, ...context });
  };
  return {
    // Bolt's "info" lines are routine connection chatter; they belong at debug in the bot's log.
    debug: (...parts: unknown[]) => emit("debug", parts),
    info: (...parts: unknown[]) => emit("debug", parts),
    warn: (...parts: unknown[]) => emit("warn", parts),
    error: (...parts: unknown[]) => emit("error", parts),
    setLevel: (l: LogLevel) => {
      current = l;
    },
    getLevel: () => current,
    setName: (n: string) => {
      name = n;
    },
  };
}
