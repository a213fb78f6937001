// The error reply a person sees when a command or an answer fails: what went wrong and what to do.
import type { RlError } from "../src/errors.ts";
import type { Reply } from "../src/reply.ts";

/** The error reply a person sees: what went wrong and what to do; details for JSON and the LLM. */
export function errorReply(err: RlError): Reply {
  const title = err.code === "USAGE" ? "Usage" : err.code === "FORBIDDEN" ? "Not allowed" : "Could not do that";
  return {
    title,
    text: err.message,
    delivery: { ephemeral: true },
    error: {
      code: err.code,
      message: err.message,
      ...(Object.keys(err.details).length ? { details: err.details } : {}),
    },
  };
}
