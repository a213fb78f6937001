// The paths a manifest's glob names (`configs/*.yaml`, `{run_dir}/ckpt/step_*`, `runs/**/metrics.jsonl`): `*` and `?`
// within one path segment, `**` for any depth of folders. Symbolic links are not followed into folders, so a glob
// never walks out of the tree it names; bounded, so a huge tree cannot hold the bot.
import { readdir } from "node:fs/promises";
import path from "node:path";

/** The most paths one glob gives (a checkpoint folder of a long run holds a few hundred). */
const MAX_PATHS = 10_000;

/** A piece of a glob as a regex's source: `*` and `?` match within one path segment, the rest as it is. */
export function globSource(text: string): string {
  return text
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]");
}

const segmentRegex = (segment: string) => new RegExp("^" + globSource(segment) + "$");

const hasWildcard = (segment: string) => /[*?]/.test(segment);

/**
 * The existing paths (files or folders) matching `pattern`, absolute, sorted. A relative pattern is taken from `root`.
 * Hidden names match only a segment that starts with a dot.
 */
export async function globPaths(root: string, pattern: string): Promise<string[]> {
  const absolute = path.resolve(root, pattern);
  const { root: fsRoot } = path.parse(absolute);
  const segments = absolute.slice(fsRoot.length).split(path.sep).filter(Boolean);
  // The fixed start of the pattern is taken as it is: only the rest is listed.
  let base = fsRoot;
  while (segments.length > 1 && !hasWildcard(segments[0]!)) base = path.join(base, segments.shift()!);
  const out: string[] = [];
  await walk(base, segments, out);
  return [...new Set(out)].sort();
}

async function walk(dir: string, segments: readonly string[], out: string[]): Promise<void> {
  if (out.length >= MAX_PATHS || segments.length === 0) return;
  const [segment, ...rest] = segments as [string, ...string[]];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  if (segment === "**") {
    await walk(dir, rest, out);
    for (const e of entries)
      if (e.isDirectory() && !e.name.startsWith(".")) await walk(path.join(dir, e.name), segments, out);
    return;
  }
  const re = segmentRegex(segment);
  for (const e of entries) {
    if (!re.test(e.name) || (e.name.startsWith(".") && !segment.startsWith("."))) continue;
    const full = path.join(dir, e.name);
    if (rest.length === 0) out.push(full);
    else if (e.isDirectory()) await walk(full, rest, out);
    if (out.length >= MAX_PATHS) return;
  }
}
