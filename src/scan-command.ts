// `rl-chatops scan DIR [--json]`: what discovery finds in a folder (environments, or recipes on the cookbook stack), without running any of it.
// In dist/ a CommonJS program of its own (bin/build.mjs, COMMONJS), dist/scan-command.cjs, which bin/rl-chatops.js
// runs for `scan` without loading Node's ES module loader or the command's chunks. It holds only what starts the
// parse helpers: the rest (settings, scanners, output) is dist/scan-folder.cjs, loaded while the helpers start.
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { runCommandMain } from "./cli/command-main.ts";
import { loadProgram } from "./cli/load-program.ts";
import { UsageError, type CommandLine } from "./cli/parse-command-line.ts";
import { RlError } from "./errors.ts";
import { createParsePool } from "./environments/threads/parse-pool.ts";
import type * as ScanFolderModule from "./scan-folder.ts";

const scanFolderProgram = () =>
  loadProgram<typeof ScanFolderModule>(import.meta.url, "./scan-folder.ts", "./scan-folder.cjs");

export async function runScan(dir: string, options: { json: boolean }): Promise<number> {
  // A folder that is not there is a mistyped argument, not an empty catalog: the command fails (exit 1) saying so.
  const folder = path.resolve(dir);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory())
    throw new RlError("NOT_FOUND", `There is no folder ${folder} to scan: give the folder holding the environments.`);
  // Nothing else runs in this process: discovery may parse on every core, this thread included. A helper thread takes
  // about 35 ms to start (Node's bootstrap of a thread, 26 ms here, and its parser), so it starts first: it is ready
  // about when the settings are read and the folder listed.
  const count = availableParallelism();
  const pool = createParsePool(count, { helperMinBytes: 0 });
  pool.prepare(0);
  try {
    await (await scanFolderProgram()).scanFolder(folder, options, { count, pool });
  } finally {
    // Also when a setting is refused: the helpers stop with the command.
    await pool.release();
  }
  return 0;
}

/** `rl-chatops scan DIR [--json]`. */
export function runScanLine(line: CommandLine): Promise<number> {
  const dir = line.args[0];
  if (!dir) throw new UsageError("scan needs a folder, e.g. rl-chatops scan ./environments.");
  return runScan(dir, { json: line.options.json === true });
}

/**
 * The program bin/rl-chatops.js runs for `rl-chatops scan ...`: `argv` is the command line after `rl-chatops`. The
 * settings' names (for a .env that names some) come with the settings, in dist/scan-folder.cjs.
 */
export function main(argv: string[]): void {
  runCommandMain(argv, {
    run: runScanLine,
    settingNames: async () => (await scanFolderProgram()).loadSettingNames(),
  });
}
