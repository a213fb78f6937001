// At start, the bot's private files that other users of this machine could read or change: one line for each, naming
// the file and the chmod that makes it private. Only said, never done: a mode someone chose stays theirs to change.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

export interface PrivatePaths {
  dataDir: string;
  databasePath: string;
  backupsDir: string;
}

/** A path as a shell takes it: bare when plain, else single-quoted. */
function shellWord(file: string): string {
  return /^[\w./@%+=:,-]+$/.test(file) ? file : `'${file.replace(/'/g, "'\\''")}'`;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;

function modeOf(file: string): number | undefined {
  try {
    return statSync(file).mode;
  } catch {
    return undefined;
  }
}

function listed(dir: string): string[] {
  try {
    return readdirSync(dir).map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** The folders (chmod 700) and files (chmod 600) that hold the bot's records. */
function privatePaths(paths: PrivatePaths): Array<{ file: string; folder: boolean }> {
  const { dataDir, databasePath, backupsDir } = paths;
  const files = ["", "-wal", "-shm", "-journal"].map((side) => `${databasePath}${side}`);
  files.push(path.join(dataDir, "bot.lock"), path.join(dataDir, "mcp-tokens"));
  files.push(...listed(backupsDir).filter((f) => f.endsWith(".db")));
  return [
    ...[dataDir, backupsDir].map((file) => ({ file, folder: true })),
    ...files.map((file) => ({ file, folder: false })),
  ];
}

/** A line for each private file or folder whose mode lets other users in; none when all are private (or absent). */
export function wideModeWarnings(paths: PrivatePaths): string[] {
  const lines: string[] = [];
  for (const { file, folder } of privatePaths(paths)) {
    const mode = modeOf(file);
    if (mode === undefined || (mode & 0o077) === 0) continue;
    const what = folder ? "the folder" : "the file";
    lines.push(
      `${file}: other users of this machine can reach ${what} (mode ${octal(mode)}); it holds the bot's records, so make it private with: chmod ${folder ? "700" : "600"} ${shellWord(file)}`,
    );
  }
  return lines;
}
