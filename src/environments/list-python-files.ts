// Lists the .py files of an environments folder, refusing links that lead out of it and files that are not files.
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { describeFsError } from "./describe-fs-error.ts";
import type { ScanWarning } from "./types.ts";

export interface PythonFileEntry {
  /** Path relative to the scanned folder, "/"-separated: the key modules are resolved by. */
  key: string;
  /** Path under the folder as the caller named it; what users see and what a run will execute. */
  filePath: string;
  size: number;
  mtimeMs: number;
}

export interface PythonFileListing {
  files: PythonFileEntry[];
  warnings: ScanWarning[];
}

/** Walk `root` (whose real path is `realRoot`); subfolders only when `recursive`. Sorted by key. */
export async function listPythonFiles(root: string, realRoot: string, recursive: boolean): Promise<PythonFileListing> {
  const files: PythonFileEntry[] = [];
  const warnings: ScanWarning[] = [];
  const inside = (real: string): boolean => real === realRoot || real.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep);
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
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith(".")) continue;
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
          if (isPython) warnings.push({ filePath, message: `broken symbolic link (${describeFsError(err)}); skipped` });
          continue;
        }
        const target = await stat(real).catch(() => undefined);
        isDirectory = target?.isDirectory() ?? false;
        isFile = target?.isFile() ?? false;
        if (isDirectory ? !recursive : !isPython) continue;
        if (!inside(real)) {
          warnings.push({ filePath, message: `symbolic link points outside the scanned folder (to ${real}); refused` });
          continue;
        }
      }
      if (isDirectory) {
        if (!recursive || name === "__pycache__") continue;
        const real = await realpath(filePath).catch(() => undefined);
        if (!real || visited.has(real)) continue;
        visited.add(real);
        await walk(key);
        continue;
      }
      if (!isPython) continue;
      if (!isFile) {
        // A FIFO or device named *.py would block or never end when read.
        warnings.push({ filePath, message: "not a regular file; skipped" });
        continue;
      }
      try {
        const info = await stat(filePath);
        files.push({ key, filePath, size: info.size, mtimeMs: info.mtimeMs });
      } catch (err) {
        warnings.push({ filePath, message: `could not read file information (${describeFsError(err)}); skipped` });
      }
    }
  }

  await walk("");
  files.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { files, warnings };
}
