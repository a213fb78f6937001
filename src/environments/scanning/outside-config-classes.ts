// The config classes defined outside the scanned folder (atroposlib's BaseEnvConfig, the trainer's TinkerConfig),
// read from their own source files when there are any, and again only when a file's stamp changes.
import { stat } from "node:fs/promises";
import path from "node:path";
import { describeFsError } from "../describe-fs-error.ts";
import type { BaseEnvConfigField } from "../resolution/base-env-config.ts";
import { findAtroposlib, type AtroposlibLookup } from "../resolution/find-atroposlib.ts";
import { readConfigClassFields } from "../resolution/read-config-class-fields.ts";
import type { ParsePool } from "../threads/parse-pool.ts";
import type { ScanWarning } from "../types.ts";

/** A class's fields as its file defines them, or the warning that says the bundled copy is used instead. */
export interface OutsideClass {
  fields?: BaseEnvConfigField[];
  warning?: ScanWarning;
}

export interface OutsideConfigClasses {
  /** BaseEnvConfig's fields from atroposlib's envs/base.py (`source`), once atroposlib has been found. */
  baseConfig(): Promise<OutsideClass & { source?: string }>;
  /** TinkerConfig's fields from the trainer's config.py, when the training root has it. */
  trainerConfig(): Promise<OutsideClass>;
}

/** Where the classes are: the scanner's own options, read at each scan. */
export interface OutsideClassSources {
  /** Where atroposlib is, or the Python to ask. */
  atroposlib?: AtroposlibLookup;
  /** tinker-atropos's tinker_atropos/config.py, when the training root may have it. */
  trainerConfigFile?: string;
}

export function createOutsideConfigClasses(
  options: OutsideClassSources,
  pool: ParsePool,
  read: (filePath: string) => Promise<Uint8Array>,
): OutsideConfigClasses {
  const classFiles = new Map<string, OutsideClass & { stamp: string }>();
  async function readClassFile(file: string, className: string, what: string): Promise<OutsideClass> {
    let known = classFiles.get(file);
    try {
      const info = await stat(file);
      const stamp = `${info.mtimeMs}:${info.size}`;
      if (known?.stamp !== stamp) {
        const outcome = await pool.parse(await read(file));
        const fields = outcome.kind === "summary" ? readConfigClassFields(outcome.summary, file, className) : undefined;
        known = fields
          ? { stamp, fields }
          : {
              stamp,
              warning: {
                filePath: file,
                message: `${className} could not be read here; the bundled copy of ${what} is used`,
              },
            };
      }
    } catch (err) {
      known = {
        stamp: "",
        warning: {
          filePath: file,
          message: `the file of ${className} could not be read (${describeFsError(err)}); the bundled copy of ${what} is used`,
        },
      };
    }
    classFiles.set(file, known);
    return known;
  }

  // Asked once, in the background: the training Python does not change while the bot runs, and a scan never waits
  // for it (starting Python can take a second); the scans after its answer use atroposlib's fields.
  let atroposlibDir: { dir?: string } | undefined;
  let asked = false;

  return {
    async baseConfig() {
      if (!options.atroposlib) return {};
      if (!asked) {
        asked = true;
        const lookup = options.atroposlib;
        if ("dir" in lookup) atroposlibDir = { dir: lookup.dir };
        else
          void findAtroposlib(lookup).then(
            (dir) => (atroposlibDir = dir ? { dir } : {}),
            () => (atroposlibDir = {}),
          );
      }
      const dir = atroposlibDir?.dir;
      if (!dir) return {};
      const file = path.join(dir, "envs", "base.py");
      const read = await readClassFile(file, "BaseEnvConfig", "BaseEnvConfig's fields");
      return { ...read, ...(read.fields ? { source: file } : {}) };
    },
    async trainerConfig() {
      const file = options.trainerConfigFile;
      if (!file) return {};
      // A training root without tinker-atropos's config.py is no error: the bundled table describes the trainer.
      const exists = await stat(file).then(
        () => true,
        () => false,
      );
      return exists ? readClassFile(file, "TinkerConfig", "the trainer's fields") : {};
    },
  };
}
