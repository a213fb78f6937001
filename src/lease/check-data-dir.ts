// Checks RL_DATA_DIR before anything in it is opened or created: a folder (or one that can be made), writable, on a real filesystem.
import { accessSync, constants, statfsSync, statSync } from "node:fs";
import path from "node:path";
import { RlError } from "../errors.ts";

/**
 * Kernel filesystems (statfs f_type) that only look like folders: files cannot be created in them, and Node's
 * recursive mkdir under /proc never returns (mkdir says ENOENT, the parent exists, it tries again, forever).
 */
const PSEUDO_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, "proc"],
  [0x62656572, "sysfs"],
  [0x1cd1, "devpts"],
  [0x64626720, "debugfs"],
  [0x74726163, "tracefs"],
  [0x73636673, "securityfs"],
  [0x27e0eb, "cgroup"],
  [0x63677270, "cgroup2"],
  [0xcafe4a11, "bpf"],
  [0x6165676c, "pstore"],
  [0x62656570, "configfs"],
  [0xde5e81e4, "efivarfs"],
  [0x65735543, "fusectl"],
  [0x42494e4d, "binfmt_misc"],
  [0x19800202, "mqueue"],
  [0x6e736673, "nsfs"],
  [0xf97cff8c, "selinuxfs"],
]);

function refuse(dataDir: string, problem: string, cause?: unknown): RlError {
  return new RlError(
    "CONFIG",
    `RL_DATA_DIR is ${dataDir}, ${problem}. Set RL_DATA_DIR (in the environment or the RL_CONFIG file) to a writable folder on an ordinary filesystem (it is created when missing).`,
    cause === undefined ? {} : { cause },
  );
}

/** The folder itself when it exists, else the nearest ancestor that does (where it would be created). */
function nearestExisting(dataDir: string): { dir: string; isDir: boolean } {
  for (let dir = dataDir; ; dir = path.dirname(dir)) {
    try {
      return { dir, isDir: statSync(dir).isDirectory() };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || dir === path.dirname(dir)) {
        throw refuse(dataDir, `which cannot be looked at (${(err as Error).message})`, err);
      }
    }
  }
}

/** Refuses, with one line naming RL_DATA_DIR and what to do, a data folder the bot could not use; creates nothing. */
export function checkDataDir(dataDir: string): void {
  const { dir, isDir } = nearestExisting(dataDir);
  const exists = dir === dataDir;
  if (!isDir) {
    throw refuse(dataDir, exists ? "which is a file, not a folder" : `which cannot be created: ${dir} is a file`);
  }
  const filesystem = PSEUDO_FILESYSTEMS.get(Number(statfsSync(dir).type));
  if (filesystem) {
    throw refuse(dataDir, `which is on ${filesystem}, a kernel filesystem that cannot hold files (${dir})`);
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === "EROFS" ? "is read-only" : "is not writable";
    throw refuse(dataDir, exists ? `which ${why}` : `which cannot be created: ${dir} ${why}`, err);
  }
}
