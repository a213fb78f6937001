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
  | "PROCESS_FAILED"
  | "TIMEOUT"
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

export class RlError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: RlErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RlError";
    this.code = code;
    this.details = options.details ?? {};
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
