// Keeps the newest inference-test folders (their JSONL and logs help debugging) and removes older ones.
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

export const KEEP_TEST_FOLDERS = 20;

/** Remove all but the `keep` most recently modified folders under `root`; returns the names removed. */
export function pruneTestFolders(root: string, keep = KEEP_TEST_FOLDERS): string[] {
  let entries: Array<{ name: string; mtimeMs: number }>;
  try {
    entries = readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => ({ name: e.name, mtimeMs: statSync(path.join(root, e.name)).mtimeMs }));
  } catch {
    return [];
  }
  entries.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const old = entries.slice(keep);
  for (const e of old) rmSync(path.join(root, e.name), { recursive: true, force: true });
  return old.map((e) => e.name);
}
