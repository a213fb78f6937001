// Discovers tinker-cookbook recipes without running them: modules under recipes/ whose main block hands a chz config to
// chz.entrypoint or chz.nested_entrypoint, with that config's fields. Runs in whatever thread calls it.
import { readFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { RlError } from "../../errors.ts";
import { listPythonFiles } from "../scanning/list-python-files.ts";
import { openScanRoot } from "../scanning/open-scan-root.ts";
import { pythonParser } from "../threads/load-python-parser.ts";
import type { EnvironmentInfo, ScanResult, ScanWarning } from "../types.ts";
import type { ChzEntry } from "./cookbook-file-summary.ts";
import { createCookbookModules, type CookbookModules, type LoadedFile, type Resolved } from "./cookbook-modules.ts";
import { readChzFields } from "./read-chz-fields.ts";

export interface RecipeScannerOptions {
  /** Larger files are refused by their size, unread (default 1,000,000 bytes). */
  maxFileBytes?: number;
  /** Reads a file's bytes; replaceable so tests can see which files were read. */
  readFile?: (filePath: string) => Promise<Uint8Array>;
}

export interface RecipeScanner {
  scan(dir: string): Promise<ScanResult>;
}

const DEFAULT_MAX_FILE_BYTES = 1_000_000;
const PACKAGE = "tinker_cookbook";
// Only a file that names chz's entry point can be a recipe; the rest are not parsed unless a recipe imports them.
const ENTRY_MARK = new TextEncoder().encode("entrypoint");

export function createRecipeScanner(options: RecipeScannerOptions = {}): RecipeScanner {
  const readFile = options.readFile ?? (async (filePath: string) => readFileSync(filePath));
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;

  return {
    async scan(dir) {
      const opened = await openScanRoot(dir);
      if ("result" in opened) {
        const [warning] = opened.result.warnings;
        throw new RlError("NOT_FOUND", `Recipes folder ${dir}: ${warning?.message ?? "cannot be scanned"}.`, {
          details: { dir },
        });
      }
      const warnings: ScanWarning[] = [];
      const listing = await listPythonFiles(dir, opened.realRoot, true);
      warnings.push(...listing.warnings);
      const modules = createCookbookModules({
        packageRoot: await findPackageRoot(path.resolve(dir)),
        parser: pythonParser(),
        readFile,
        maxFileBytes,
        warnings,
      });
      const environments: EnvironmentInfo[] = [];
      for (const entry of listing.files) {
        const filePath = path.resolve(entry.filePath);
        if (entry.size > maxFileBytes) {
          warnings.push({ filePath, message: `larger than ${maxFileBytes} bytes; not read` });
          continue;
        }
        let bytes: Uint8Array;
        try {
          bytes = await readFile(filePath);
        } catch (err) {
          warnings.push({ filePath, message: `could not be read (${describe(err)}); skipped` });
          continue;
        }
        if (indexOf(bytes, ENTRY_MARK) < 0) continue;
        const file = await modules.load(filePath, bytes);
        const chzEntry = file?.summary.entry;
        if (!file || !chzEntry) continue;
        environments.push(await readRecipe(modules, file, entry.key, chzEntry, warnings));
      }
      return { environments, warnings };
    },
  };
}

const describe = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? String(err);

/** The folder above `dir` holding the tinker_cookbook package, where absolute imports are looked up. */
async function findPackageRoot(dir: string): Promise<string | undefined> {
  for (let at = dir; ; at = path.dirname(at)) {
    if (path.basename(at) !== PACKAGE) {
      const info = await stat(path.join(at, PACKAGE)).catch(() => undefined);
      if (info?.isDirectory()) return at;
    }
    if (path.dirname(at) === at) return undefined;
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  for (let at = haystack.indexOf(first ?? 0); at >= 0 && at <= haystack.length - needle.length;) {
    let match = true;
    for (let k = 1; k < needle.length; k += 1) {
      if (haystack[at + k] !== needle[k]) {
        match = false;
        break;
      }
    }
    if (match) return at;
    at = haystack.indexOf(first ?? 0, at + 1);
  }
  return -1;
}

async function readRecipe(
  modules: CookbookModules,
  file: LoadedFile,
  key: string,
  entry: ChzEntry,
  warnings: ScanWarning[],
): Promise<EnvironmentInfo> {
  const modulePath = key.replace(/\.py$/, "").replace(/\/__init__$/, "");
  const recipe: EnvironmentInfo = {
    name: modulePath.split("/").join("."),
    className: "",
    filePath: file.filePath,
    relativePath: key,
    description: file.summary.docstring ?? "",
    configClass: "",
    fields: [],
    runnable: true,
  };
  const warn = (message: string) => warnings.push({ filePath: file.filePath, message: `${recipe.name}: ${message}` });
  const found = await findConfigClass(modules, file, entry);
  recipe.className = recipe.configClass = found.name;
  if (found.resolved.kind !== "class") {
    warn(found.problem ?? `config class ${found.name} could not be read; its fields are unknown`);
    return recipe;
  }
  if (!found.resolved.cls.isChz) warn(`config class ${found.name} is not decorated with @chz.chz`);
  if (found.resolved.cls.docstring) recipe.description = found.resolved.cls.docstring;
  const { fields, problems } = await readChzFields(modules, found.resolved);
  recipe.fields = fields;
  for (const problem of problems) warn(problem);
  return recipe;
}

interface FoundConfig {
  name: string;
  resolved: Resolved;
  problem?: string;
}

/** The class the entry point builds: its target, or the first parameter's annotation of a nested entry point's function. */
async function findConfigClass(modules: CookbookModules, file: LoadedFile, entry: ChzEntry): Promise<FoundConfig> {
  if (entry.kind === "opaque") {
    return {
      name: "",
      resolved: { kind: "unresolved" },
      problem: `the entry point's target (${entry.text || "nothing"}) cannot be read without running it`,
    };
  }
  const target = await modules.resolve(file, entry.target);
  const targetName = entry.target.join(".");
  if (entry.kind === "entrypoint") return describeClass(targetName, target);
  if (target.kind !== "function") {
    return { ...describeClass(targetName, target), problem: explain(targetName, target, "function") };
  }
  const annotation = target.firstParamAnnotation?.replace(/^["']|["']$/g, "");
  if (!annotation || !/^[A-Za-z_][\w.]*$/.test(annotation)) {
    return {
      name: annotation ?? "",
      resolved: { kind: "unresolved" },
      problem: `${targetName}'s first parameter has no config class annotation; its fields are unknown`,
    };
  }
  return describeClass(annotation, await modules.resolve(target.file, annotation.split(".")));
}

function describeClass(name: string, resolved: Resolved): FoundConfig {
  const short = name.split(".").at(-1) ?? name;
  return resolved.kind === "class"
    ? { name: resolved.cls.name, resolved }
    : { name: short, resolved, problem: explain(name, resolved, "config class") };
}

function explain(name: string, resolved: Resolved, what: string): string {
  if (resolved.kind === "external") {
    return `${what} ${name} comes from ${resolved.qualified.split(".").slice(0, -1).join(".") || resolved.qualified}, outside the checkout; its fields are unknown`;
  }
  if (resolved.kind === "function") return `${what} ${name} is a function; its parameters are not read`;
  return `${what} ${name} could not be found in the checkout; its fields are unknown`;
}
