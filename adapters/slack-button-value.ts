// Packs a neutral button (command text, confirmed, cancel) into a Slack button value and reads it back from a click.
import type { ReplyButton } from "../src/reply.ts";

/** Slack rejects a button whose value is longer than this. */
export const MAX_BUTTON_VALUE = 2000;

export interface ButtonValue {
  command: string;
  confirmed: boolean;
  cancel: boolean;
}

/** The value string, or undefined when the command is too long to fit in a button. */
export function encodeButtonValue(button: ReplyButton): string | undefined {
  const value = JSON.stringify({
    c: button.command,
    ...(button.confirmed ? { y: 1 } : {}),
    ...(button.action === "cancel" ? { a: "cancel" } : {}),
  });
  return value.length <= MAX_BUTTON_VALUE ? value : undefined;
}

/** Reads a clicked button's value; anything not made by encodeButtonValue yields undefined. */
export function decodeButtonValue(value: unknown): ButtonValue | undefined {
  if (typeof value !== "string") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { c, y, a } = parsed as Record<string, unknown>;
  if (typeof c !== "string") return undefined;
  return { command: c, confirmed: y === 1, cancel: a === "cancel" };
}
