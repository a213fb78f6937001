// Reads the groups process mode wrote (one JSON line per group) into scored steps, skipping lines that are not groups.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { StepResult } from "./types.ts";

export interface ParsedOutput {
  steps: StepResult[];
  /** Non-empty lines that were not a group with a list of numeric scores. */
  malformedLines: number;
}

/** More lines than any sane test writes (steps are capped at 50): a runaway file is not read to the end. */
const MAX_LINES = 10_000;

function scoresOf(line: string): number[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const scores = (value as { scores?: unknown }).scores;
  if (!Array.isArray(scores) || !scores.every((s): s is number => typeof s === "number" && Number.isFinite(s)))
    return undefined;
  return scores;
}

/** A completion is correct when its score is at least `threshold`. */
export function parseProcessOutput(lines: Iterable<string>, threshold: number): ParsedOutput {
  const steps: StepResult[] = [];
  let malformedLines = 0;
  let seen = 0;
  for (const raw of lines) {
    if (++seen > MAX_LINES) break;
    const line = raw.trim();
    if (!line) continue;
    const scores = scoresOf(line);
    if (!scores) {
      malformedLines++;
      continue;
    }
    steps.push({
      step: steps.length + 1,
      completions: scores.length,
      correct: scores.filter((s) => s >= threshold).length,
      scores,
    });
  }
  return { steps, malformedLines };
}

export async function readProcessOutput(file: string, threshold: number): Promise<ParsedOutput> {
  const stream = createReadStream(file, { encoding: "utf8" });
  try {
    const lines: string[] = [];
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      lines.push(line);
      if (lines.length > MAX_LINES) break;
    }
    return parseProcessOutput(lines, threshold);
  } finally {
    stream.destroy();
  }
}
