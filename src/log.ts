// A small structured logger: one JSON line per event on stderr, secrets redacted, level-filtered.
import type { Redactor } from "./redact.ts";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

function describe(value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, code: (value as { code?: unknown }).code, cause: describe(value.cause), stack: value.stack };
  }
  return value;
}

export function createLogger(level: LogLevel, redact: Redactor, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const emit = (at: LogLevel, message: string, context: Record<string, unknown> = {}) => {
    if (ORDER[at] < ORDER[level]) return;
    const entries = Object.entries(context).map(([k, v]) => [k, describe(v)]);
    write(redact(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...Object.fromEntries(entries) })) + "\n");
  };
  return {
    debug: (m, c) => emit("debug", m, c),
    info: (m, c) => emit("info", m, c),
    warn: (m, c) => emit("warn", m, c),
    error: (m, c) => emit("error", m, c),
  };
}
