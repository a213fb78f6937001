// `rl-chatops scan DIR [--json]`: what discovery finds in a folder (environments, or recipes on the cookbook stack), without running any of it.
// In dist/ a CommonJS program of its own (bin/build.mjs, COMMONJS), dist/scan-command.cjs, which bin/rl-chatops.js
// runs for `scan` without loading Node's ES module loader or the command's chunks.
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { runCommandMain } from "./cli/command-main.ts";
import { UsageError, type CommandLine } from "./cli/parse-command-line.ts";
import { loadSettingNames } from "./cli/setting-names.ts";
import { RlError } from "./errors.ts";
import { createParsePool } from "./environments/threads/parse-pool.ts";
import type { ScanResult } from "./environments/types.ts";

export async function runScan(dir: string, options: { json: boolean }): Promise<number> {
  // A folder that is not there is a mistyped argument, not an empty catalog: the command fails (exit 1) saying so.
  const folder = path.resolve(dir);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory())
    throw new RlError("NOT_FOUND", `There is no folder ${folder} to scan: give the folder holding the environments.`);
  // Nothing else runs in this process: discovery may parse on every core, this thread included. The helper threads
  // start before the settings are read, so they have loaded their parser by the time the folder is listed.
  const parseThreads = availableParallelism();
  const parsePool = createParsePool(parseThreads, { helperMinBytes: 0 });
  parsePool.prepare(0);
  let result: ScanResult;
  try {
    // Set up only once the helper has been started: in dist/scan-command.js these modules are part of the file, and
    // importing them runs their set-up (zod's, yaml's, the settings') then, not when the file is loaded.
    const [{ loadConfig }, { loadLockedFields }, { createEnvironmentScanner }, { createRecipeCatalogScanner }] =
      await Promise.all([
        import("./config.ts"),
        import("./locked-fields.ts"),
        import("./environments/scanner.ts"),
        import("./stacks/tinker-cookbook/recipe-catalog-scanner.ts"),
      ]);
    const config = loadConfig();
    const locked = loadLockedFields(config.lockedFieldsPath);
    // On the cookbook stack the folder holds recipes (a few files, read on this thread).
    const scanner =
      config.stack === "tinker-cookbook"
        ? createRecipeCatalogScanner(locked, { maxFileBytes: config.scanMaxFileBytes })
        : createEnvironmentScanner({
            lockedEnv: locked.env,
            recursive: config.scanRecursive,
            maxFileBytes: config.scanMaxFileBytes,
            // Only a folder named by the settings: a one-shot scan does not start the training Python to look for one.
            ...(config.atroposlibDir ? { atroposlib: { dir: config.atroposlibDir } } : {}),
            parseThreads,
            parsePool,
          });
    result = await scanner.scan(folder);
  } finally {
    // Also when a setting is refused: the helpers stop with the command.
    await parsePool.release();
  }
  const { toScanJson } = await import("./environments/scan-json.ts");
  if (options.json) {
    process.stdout.write(`${JSON.stringify(toScanJson(result), null, 2)}\n`);
  } else {
    for (const e of result.environments) {
      process.stdout.write(
        `${e.name}  ${e.className}  ${e.filePath}\n  ${e.description}\n  ${e.fields.length} fields (config class ${e.configClass})\n`,
      );
    }
    for (const w of result.warnings) process.stderr.write(`warning: ${w.filePath}: ${w.message}\n`);
  }
  return 0;
}

/** `rl-chatops scan DIR [--json]`. */
export function runScanLine(line: CommandLine): Promise<number> {
  const dir = line.args[0];
  if (!dir) throw new UsageError("scan needs a folder, e.g. rl-chatops scan ./environments.");
  return runScan(dir, { json: line.options.json === true });
}

/** The program bin/rl-chatops.js runs for `rl-chatops scan ...`: `argv` is the command line after `rl-chatops`. */
export function main(argv: string[]): void {
  runCommandMain(argv, { run: runScanLine, settingNames: loadSettingNames });
}
