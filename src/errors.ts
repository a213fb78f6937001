// Typed errors: a stable code, a message a person can act on, and the cause; unknown errors are wrapped once.
export type ErrorCode =
  | "USAGE"
  | "NOT_FOUND"
  | "NO_ENVIRONMENT"
  | "NOT_STARTABLE"
  | "INVALID_VALUE"
  | "LOCKED_FIELD"
  | "FORBIDDEN"
  | "RATE_LIMITED"
  | "MISSING_KEYS"
  | "CONFLICT"
  | "OVER_BUDGET"
  | "PROCESS_FAILED"
  | "TIMEOUT"
  | "INTERRUPTED"
  | "PORT_IN_USE"
  | "UPSTREAM"
  | "CONFIG"
  | "DATABASE"
  | "INTERNAL";

export interface RlErrorOptions {
  cause?: unknown;
  /** Extra facts for the user or the LLM (e.g. nearest field name, locked value, seconds to wait). */
  details?: Record<string, unknown>;
}

/** Marks an RlError made by any copy of this module (see RlError[Symbol.hasInstance]). */
const RL_ERROR = Symbol.for("rl-chatops.RlError");

export class RlError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: RlErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RlError";
    this.code = code;
    this.details = options.details ?? {};
    Object.defineProperty(this, RL_ERROR, { value: true });
  }

  /**
   * `instanceof RlError` holds for an RlError from another copy of this class too: dist/scan-command.js is a bundle
   * of its own (bin/build.mjs), and what it throws is caught by the command line's copy.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[RL_ERROR] === true;
  }
}

export function isRlError(err: unknown): err is RlError {
  return err instanceof RlError;
}

/** Wrap anything thrown into an RlError, keeping RlErrors as they are. */
export function asRlError(err: unknown): RlError {
  if (err instanceof RlError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new RlError("INTERNAL", `Something went wrong: ${message}`, { cause: err });
}
