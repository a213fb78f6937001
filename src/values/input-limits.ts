// How much one request may say, from any client: a command line's characters, a tool call's arguments, and the exec
// socket's request line. Each refusal says the request's length and the limit (a file of its own: exec's client
// checks a command line before it starts anything, and loads nothing else for it).

/** A typed or sent command line, in characters. */
export const MAX_COMMAND_LENGTH = 8_000;

/** The same budget for JSON arguments (an agent's or the LLM's tool call, Discord options): characters in all. */
export const MAX_ARGS_CHARS = 8_000;

/** One request line on the exec socket, in bytes: a command or tool call within its limits fits several times over. */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** The refusal of a command line over the limit (USAGE), or undefined when it is within it. */
export function commandTooLong(text: string): string | undefined {
  if (text.length <= MAX_COMMAND_LENGTH) return undefined;
  return `That command is ${text.length} characters long; the limit is ${MAX_COMMAND_LENGTH}. Shorten it.`;
}
