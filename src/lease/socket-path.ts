// Where the bot listens for rl-chatops exec: in the data folder, or under the temp folder when that path is too long.
import type * as Crypto from "node:crypto";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

/** node:crypto is loaded only for a long path: exec's client, which asks a running bot, never needs it. */
const requireBuiltin = createRequire(import.meta.url);

/** sun_path holds 108 bytes on Linux, one of them the terminating NUL. */
export const MAX_SOCKET_PATH_BYTES = 107;

export function socketPathFor(dataDir: string, tmpDir: string = os.tmpdir()): string {
  const inFolder = path.join(dataDir, "bot.sock");
  if (Buffer.byteLength(inFolder) <= MAX_SOCKET_PATH_BYTES) return inFolder;
  // The same data folder always gives the same name, so a stale file is found again and replaced.
  const { createHash } = requireBuiltin("node:crypto") as typeof Crypto;
  const hash = createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16);
  return path.join(tmpDir, `rl-chatops-${hash}.sock`);
}
