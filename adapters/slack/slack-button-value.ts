// Packs a neutral button into a Slack button value and reads it back from a click: a command to run, or the id of
// a confirmation prompt with the answer (the command itself stays server-side, in the confirmations table).
import type { ReplyButton } from "../../src/reply.ts";

/** Slack rejects a button whose value is longer than this. */
export const MAX_BUTTON_VALUE = 2000;

export type ButtonValue =
  | { kind: "run"; command: string }
  | { kind: "answer"; confirmation: string; answer: "confirm" | "cancel" }
  | { kind: "page"; id: string; index: number }
  | { kind: "share"; id: string; index: number };

/** The value string, or undefined when the command is too long to fit in a button. */
export function encodeButtonValue(button: ReplyButton): string | undefined {
  // The same JSON shapes as ever: buttons already posted in channels are read back by decodeButtonValue.
  const value =
    button.kind === "page"
      ? JSON.stringify({ p: button.page.id, i: button.page.index })
      : button.kind === "share"
        ? JSON.stringify({ s: button.page.id, i: button.page.index })
        : button.kind === "command"
          ? JSON.stringify({ c: button.command })
          : JSON.stringify({ k: button.confirmation, a: button.kind });
  return value.length <= MAX_BUTTON_VALUE ? value : undefined;
}

/** Reads a clicked button's value; anything not made by encodeButtonValue (older stateless prompts too) yields undefined. */
export function decodeButtonValue(value: unknown): ButtonValue | undefined {
  if (typeof value !== "string") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { c, k, a, y, p, s, i } = parsed as Record<string, unknown>;
  const index = typeof i === "number" && Number.isInteger(i) && i >= 0 ? i : undefined;
  if (typeof p === "string" && index !== undefined) return { kind: "page", id: p, index };
  if (typeof s === "string" && index !== undefined) return { kind: "share", id: s, index };
  if (typeof k === "string" && (a === "confirm" || a === "cancel"))
    return { kind: "answer", confirmation: k, answer: a };
  // {"c": ..., "y": 1} and {"a": "cancel"} were the stateless prompts of earlier versions: never run again.
  if (typeof c === "string" && y === undefined && a === undefined && c !== "") return { kind: "run", command: c };
  return undefined;
}
