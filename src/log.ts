// A small structured logger: one JSON line per event on stderr, secrets redacted, level-filtered; logging never throws.
import { redactDeep, type Redactor } from "./redact.ts";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
/** Error causes can form a chain (or a loop); a few links say enough. */
const MAX_CAUSES = 5;

export interface Logger {
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

function describe(value: unknown, depth = 0): unknown {
  if (value instanceof Error) {
    const details = (value as { details?: unknown }).details;
    return {
      name: value.name,
      message: value.message,
      code: (value as { code?: unknown }).code,
      ...(details && typeof details === "object" && Object.keys(details).length ? { details } : {}),
      cause: depth < MAX_CAUSES ? describe(value.cause, depth + 1) : undefined,
      stack: value.stack,
    };
  }
  return value;
}

/** JSON that cannot fail: bigints become strings, anything else unserialisable a marker. */
function toJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  } catch {
    return JSON.stringify({ message: "(log entry could not be serialised)" });
  }
}

export function createLogger(
  level: LogLevel,
  redact: Redactor,
  write: (line: string) => void = (l) => process.stderr.write(l),
): Logger {
  const emit = (at: LogLevel, message: string, context: Record<string, unknown> = {}) => {
    if (ORDER[at] < ORDER[level]) return;
    try {
      const entry = {
        time: new Date().toISOString(),
        level: at,
        message,
        ...Object.fromEntries(Object.entries(context).map(([k, v]) => [k, describe(v)])),
      };
      // Values are redacted before serialising (a secret JSON would escape stays findable), the line again after.
      write(redact(toJson(redactDeep(entry, redact))) + "\n");
    } catch {
      // A log line that cannot be written (closed stderr, a throwing getter) must not take the caller down.
    }
  };
  return {
    debug: (m, c) => emit("debug", m, c),
    info: (m, c) => emit("info", m, c),
    warn: (m, c) => emit("warn", m, c),
    error: (m, c) => emit("error", m, c),
  };
}
