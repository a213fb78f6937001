// Writes a run's config file for its stack, owner-only; refuses when any of the bot's keys would end up in it.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { RlError } from "../errors.ts";

export function writeRunFile(file: string, text: string, secrets: readonly string[]): string {
  if (secrets.some((s) => s.length >= 4 && text.includes(s))) {
    throw new RlError(
      "INVALID_VALUE",
      "A config value contains one of the bot's API keys; remove it (keys are passed to the trainer through its environment, never the run config).",
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}
