// Finds the JSONL file this test's child really wrote, and refuses any file it cannot trust to be from this test.
import { createReadStream, lstatSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

/** Identity of a file before the child ran, to recognise a file the child never touched. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

export type OutputFile = { file: string } | { error: string };

/** Filesystem timestamps can trail the wall clock a little (coarse kernel clock, some filesystems' 1-2 s steps). */
const CLOCK_SLACK_MS = 2_000;
const PREFIX = "Changed data path to ";

export function stampOf(file: string): FileStamp | undefined {
  try {
    const s = lstatSync(file);
    return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Atropos prints "Changed data path to NEW because OLD already exists." when OLD exists; the last such line wins.
 * Matching OLD against the planned path keeps a " because " inside a path from confusing the split.
 */
export function findChangedDataPath(lines: Iterable<string>, planned: string): string | undefined {
  let found: string | undefined;
  const suffix = ` because ${planned} already exists.`;
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (!line.startsWith(PREFIX)) continue;
    if (line.endsWith(suffix)) found = line.slice(PREFIX.length, -suffix.length);
    else found = /^Changed data path to (.+?) because .+ already exists\.?$/.exec(line)?.[1] ?? found;
  }
  return found;
}

async function readChangedDataPath(stdoutPath: string, planned: string): Promise<string | undefined> {
  let stream;
  try {
    stream = createReadStream(stdoutPath, { encoding: "utf8" });
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    let found: string | undefined;
    for await (const line of lines) found = findChangedDataPath([line], planned) ?? found;
    return found;
  } catch {
    return undefined;
  } finally {
    stream?.destroy();
  }
}

export interface ResolveOptions {
  /** The path given as --env.data_path_to_save_groups (absolute, inside this test's fresh folder). */
  planned: string;
  /** The planned path's identity just before the child started, when a file was already there. */
  before?: FileStamp;
  stdoutPath: string;
  /** The child's working folder (a relative path in its output is relative to it). */
  cwd: string;
  startedAt: number;
}

export async function resolveOutputFile(o: ResolveOptions): Promise<OutputFile> {
  const folder = path.dirname(o.planned);
  const changed = await readChangedDataPath(o.stdoutPath, o.planned);
  const file = changed === undefined ? o.planned : path.resolve(o.cwd, changed);
  const rel = path.relative(folder, file);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
    return {
      error: `The environment reported writing to ${file}, outside this test's folder ${folder}; that file was not read.`,
    };
  }
  const stamp = stampOf(file);
  if (!stamp) return { error: `The environment wrote no output file (expected ${file}).` };
  if (lstatSync(file).isSymbolicLink())
    return { error: `${file} is a symbolic link; it was not read, since it may point at an older file.` };
  if (
    file === o.planned &&
    o.before &&
    o.before.ino === stamp.ino &&
    o.before.size === stamp.size &&
    o.before.mtimeMs === stamp.mtimeMs
  ) {
    return { error: `${file} is from before this test (the environment wrote no new file); it was not read.` };
  }
  if (stamp.mtimeMs < o.startedAt - CLOCK_SLACK_MS) {
    return { error: `${file} was last written before this test started; it was not read.` };
  }
  return { file };
}
