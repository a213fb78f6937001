// A manifest run's checkpoints: the paths its checkpoints glob matches, each with its step from the manifest's regex,
// oldest first. A folder without the file that marks a whole checkpoint (complete_when) is passed over: a trainer
// killed while saving leaves a half-written one, which must never be offered to resume or fork from. A trainer that
// records its newest whole checkpoint in a file of its own (checkpoints.latest) is believed: a later one is not whole.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Checkpoint } from "../training-stack.ts";
import { globPaths } from "./glob-paths.ts";
import type { StackManifest } from "./manifest-schema.ts";

/** The step a trainer's "latest" file names; -1 (none whole) when the file is missing or holds no step. */
async function latestStep(file: string): Promise<number> {
  const text = await readFile(file, "utf8").catch(() => "");
  return /^\s*\d+\s*$/.test(text) ? Number(text) : -1;
}

/**
 * What is wrong with a checkpoint's marker file, as far as the bot can tell: it cannot be read, or it is named .json
 * and does not parse (a save cut short, a garbled copy). Undefined when it looks whole.
 */
export async function markerProblem(marker: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(marker, "utf8");
  } catch (err) {
    return `${marker} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  if (!marker.endsWith(".json")) return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    return `${marker} is not whole JSON (${text.length} bytes: ${(err as Error).message})`;
  }
}

/** `pattern` is the glob, `latest` the latest file, their placeholders filled in. */
export async function readManifestCheckpoints(
  spec: NonNullable<StackManifest["checkpoints"]>,
  pattern: string,
  latest?: string,
): Promise<Checkpoint[]> {
  const stepRe = new RegExp(spec.step);
  const newest = latest === undefined ? Infinity : await latestStep(latest);
  const out: Checkpoint[] = [];
  for (const found of await globPaths("/", pattern)) {
    const m = stepRe.exec(found);
    const step = m?.[1] === undefined ? NaN : Number(m[1]);
    if (!Number.isInteger(step) || step > newest) continue;
    const marker = spec.complete_when ? path.join(found, spec.complete_when) : found;
    const written = await stat(marker).catch(() => undefined);
    if (!written) continue;
    out.push({ name: path.basename(found), step, path: found, time: written.mtime.toISOString() });
  }
  return out.sort((a, b) => a.step - b.step);
}
