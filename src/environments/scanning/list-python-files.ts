// Lists the .py files of an environments folder, refusing links that lead out of it and files that are not files.
import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { describeFsError } from "../describe-fs-error.ts";
import type { ScanWarning } from "../types.ts";

export interface PythonFileEntry {
  /** Path relative to the scanned folder, "/"-separated: the key modules are resolved by. */
  key: string;
  /** Path under the folder as the caller named it; what users see and what a run will execute. */
  filePath: string;
  size: number;
  mtimeMs: number;
}

/** What a file's module name is, as other files import it. */
export const moduleNameOf = (entry: PythonFileEntry): string => path.posix.basename(entry.key, ".py");

export interface PythonFileListing {
  files: PythonFileEntry[];
  warnings: ScanWarning[];
}

/** Walk `root` (whose real path is `realRoot`); subfolders only when `recursive`. Sorted by key. */
export async function listPythonFiles(root: string, realRoot: string, recursive: boolean): Promise<PythonFileListing> {
  const files: PythonFileEntry[] = [];
  const warnings: ScanWarning[] = [];
  const inside = (real: string): boolean =>
    real === realRoot || real.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep);
  // Links inside the folder may point back up; remembering real folders stops the loop.
  const visited = new Set<string>([realRoot]);

  async function walk(relDir: string): Promise<void> {
    const dir = path.join(root, relDir);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      warnings.push({ filePath: dir, message: `could not read folder (${describeFsError(err)}); skipped` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // What each entry is, looked up concurrently (the stats overlap in the thread pool); then taken in name order, so
    // folders are walked depth first as before and the first path to a folder reached twice is always the same one.
    const found = await Promise.all(entries.map((entry) => inspect(relDir, entry)));
    for (const item of found) {
      if (!item) continue;
      if ("warning" in item) warnings.push(item.warning);
      else if ("file" in item) files.push(item.file);
      else if (!visited.has(item.folder.real)) {
        visited.add(item.folder.real);
        await walk(item.folder.key);
      }
    }
  }

  type Found =
    { warning: ScanWarning } | { file: PythonFileEntry } | { folder: { key: string; real: string } } | undefined;

  async function inspect(relDir: string, entry: Dirent): Promise<Found> {
    const name = entry.name;
    if (name.startsWith(".")) return undefined;
    const key = relDir ? `${relDir}/${name}` : name;
    const filePath = path.join(root, key);
    const isPython = name.endsWith(".py");
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      let real: string;
      try {
        real = await realpath(filePath);
      } catch (err) {
        return isPython
          ? { warning: { filePath, message: `broken symbolic link (${describeFsError(err)}); skipped` } }
          : undefined;
      }
      const target = await stat(real).catch(() => undefined);
      isDirectory = target?.isDirectory() ?? false;
      isFile = target?.isFile() ?? false;
      if (isDirectory ? !recursive : !isPython) return undefined;
      if (!inside(real))
        return {
          warning: { filePath, message: `symbolic link points outside the scanned folder (to ${real}); refused` },
        };
    }
    if (isDirectory) {
      if (!recursive || name === "__pycache__") return undefined;
      const real = await realpath(filePath).catch(() => undefined);
      return real ? { folder: { key, real } } : undefined;
    }
    if (!isPython) return undefined;
    // A FIFO or device named *.py would block or never end when read.
    if (!isFile) return { warning: { filePath, message: "not a regular file; skipped" } };
    try {
      const info = await stat(filePath);
      return { file: { key, filePath, size: info.size, mtimeMs: info.mtimeMs } };
    } catch (err) {
      return { warning: { filePath, message: `could not read file information (${describeFsError(err)}); skipped` } };
    }
  }

  await walk("");
  files.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { files, warnings };
}
