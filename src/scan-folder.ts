// What `rl-chatops scan` does once its parse helpers are started (scan-command.ts): reads the settings, scans the
// folder with the stack's scanner and prints what it found. In dist/ a CommonJS program of its own,
// dist/scan-folder.cjs: it holds the settings' schema, YAML and the scanners, which the helpers need not wait for.
import type { ParsePool } from "./environments/threads/parse-pool.ts";
import type { ScanResult } from "./environments/types.ts";

export { loadSettingNames } from "./cli/setting-names.ts";

/** The parse helpers the command started, and how many threads may parse, the calling one included. */
export interface ScanThreads {
  count: number;
  pool: ParsePool;
}

/** Scans `folder` (absolute, a folder) and prints the result, as JSON or as text with the warnings on stderr. */
export async function scanFolder(folder: string, options: { json: boolean }, threads: ScanThreads): Promise<void> {
  const [{ loadConfig }, { loadLockedFields }] = await Promise.all([
    import("./config.ts"),
    import("./locked-fields.ts"),
  ]);
  const config = loadConfig();
  const locked = loadLockedFields(config.lockedFieldsPath);
  // On the cookbook stack the folder holds recipes (a few files, read on this thread). Only the stack's own scanner is
  // set up: the recipe scanner's modules bring the run supervision's (child_process) with them.
  const scanner = config.stackManifest
    ? (await import("./stacks/manifest/manifest-scanner.ts")).createManifestScanner(
        (await import("./stacks/manifest/load-manifest.ts")).loadManifest(config.stackManifest),
        { locked: locked.stack, maxFileBytes: config.scanMaxFileBytes },
      )
    : config.stack === "tinker-cookbook"
      ? (await import("./stacks/tinker-cookbook/recipe-catalog-scanner.ts")).createRecipeCatalogScanner(locked, {
          maxFileBytes: config.scanMaxFileBytes,
        })
      : (await import("./environments/scanner.ts")).createEnvironmentScanner({
          lockedEnv: locked.env,
          recursive: config.scanRecursive,
          maxFileBytes: config.scanMaxFileBytes,
          // Only a folder named by the settings: a one-shot scan does not start the training Python to look for one.
          ...(config.atroposlibDir ? { atroposlib: { dir: config.atroposlibDir } } : {}),
          parseThreads: threads.count,
          parsePool: threads.pool,
          scansOnce: true,
        });
  const result: ScanResult = await scanner.scan(folder);
  const { toScanJson } = await import("./environments/scan-json.ts");
  if (options.json) {
    process.stdout.write(`${JSON.stringify(toScanJson(result), null, 2)}\n`);
    return;
  }
  for (const e of result.environments) {
    process.stdout.write(
      `${[e.name, e.className, e.filePath].filter(Boolean).join("  ")}\n  ${e.description}\n  ${e.fields.length} fields${e.configClass ? ` (config class ${e.configClass})` : ""}\n`,
    );
  }
  for (const w of result.warnings) process.stderr.write(`warning: ${w.filePath}: ${w.message}\n`);
}
