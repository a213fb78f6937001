// What /rl envs lists on a manifest stack: one entry per file the manifest's entries glob matches under the training
// root, its fields read by the manifest's reader, the fields the bot sets on every run (run.set) and those the locked
// fields file names (its `stack:` section) shown locked.
import { statSync } from "node:fs";
import path from "node:path";
import type { Scanner } from "../../environments/resolution/catalog.ts";
import type { ConfigField, EnvironmentInfo, ScanResult, ScanWarning } from "../../environments/types.ts";
import { globPaths } from "./glob-paths.ts";
import type { StackManifest } from "./manifest-schema.ts";
import { classesOf, readClassFields, type ClassFields } from "./read-class-fields.ts";
import { overlayValues, readEntryValues } from "./read-entry-values.ts";
import { readYamlFields, type ReadEntry, type ReadField } from "./read-yaml-fields.ts";

export interface ManifestScannerOptions {
  /** Fields no channel may change, with their values (the locked fields file's `stack:` section). */
  locked: Readonly<Record<string, unknown>>;
  maxFileBytes: number;
}

/**
 * An entry is named by its file's name without the extension (`configs/toy.yaml` is `toy`), or with `name: folder`
 * by its folder's (`configs/toy/rl.toml` is `toy`).
 */
export const entryNameOf = (file: string, by: StackManifest["entries"]["name"] = "file") =>
  by === "folder" ? path.basename(path.dirname(file)) : path.basename(file).replace(/\.[^.]*$/, "");

/** An entry's fields by the manifest's reader: YAML or Hydra files as they are, or Python classes with its values. */
function readerOf(manifest: StackManifest, dir: string, maxBytes: number): (file: string) => Promise<ReadEntry> {
  const { entries } = manifest;
  if (entries.fields === "hydra" || entries.fields === "yaml")
    return async (file) => readYamlFields(file, entries.fields === "hydra" ? "hydra" : "yaml", maxBytes);
  // The classes are the same for every entry: read once per scan.
  let classes: Promise<ClassFields> | undefined;
  const names = classesOf(entries).join(", ");
  return async (file) => {
    const first = classes === undefined;
    const read = await (classes ??= readClassFields(dir, entries, maxBytes));
    const entry = overlayValues(read.fields, readEntryValues(file, maxBytes), names);
    // What the classes lack is said once, with the first entry; an entry's own keys with each.
    return { ...entry, problems: [...(first ? read.problems : []), ...entry.problems] };
  };
}

function lockFields(
  fields: ReadField[],
  manifest: StackManifest,
  locked: ManifestScannerOptions["locked"],
): ConfigField[] {
  const out: ConfigField[] = fields.map((f) => ({ ...f, locked: false }));
  const byName = new Map(out.map((f) => [f.name, f]));
  for (const [name, template] of Object.entries(manifest.run.set)) {
    const lockedValue = `set by the bot for each run: ${String(template)}`;
    const field = byName.get(name);
    if (field) Object.assign(field, { locked: true, lockedValue });
    else
      out.push({
        name,
        type: "str",
        fieldType: { kind: "any" },
        default: undefined,
        description: "",
        locked: true,
        lockedValue,
      });
  }
  for (const [name, value] of Object.entries(locked)) {
    const field = byName.get(name);
    if (field && !field.locked) Object.assign(field, { locked: true, lockedValue: value });
  }
  return out;
}

export function createManifestScanner(
  manifest: StackManifest,
  options: ManifestScannerOptions,
): Scanner & { close(): Promise<void> } {
  return {
    async scan(dir): Promise<ScanResult> {
      const environments: EnvironmentInfo[] = [];
      const warnings: ScanWarning[] = [];
      const files = (await globPaths(dir, manifest.entries.glob)).filter((f) => {
        try {
          return statSync(f).isFile();
        } catch {
          return false;
        }
      });
      const read = readerOf(manifest, dir, options.maxFileBytes);
      for (const filePath of files) {
        try {
          const entry = await read(filePath);
          for (const problem of entry.problems) warnings.push({ filePath, message: problem });
          environments.push({
            name: entryNameOf(filePath, manifest.entries.name),
            className: "",
            filePath,
            relativePath: path.relative(dir, filePath).split(path.sep).join("/"),
            description: entry.description,
            configClass: "",
            fields: lockFields(entry.fields, manifest, options.locked),
            runnable: true,
          });
        } catch (err) {
          warnings.push({ filePath, message: `not read: ${(err as Error).message}` });
        }
      }
      return { environments, warnings };
    },
    close: async () => {},
  };
}
