// The checkout's modules as one scan sees them: files parsed once each, and names followed through imports to their meaning.
import { stat } from "node:fs/promises";
import path from "node:path";
import type Parser from "tree-sitter";
import type { PyValue } from "../python/python-file-summary.ts";
import type { ScanWarning } from "../types.ts";
import type { ChzClassDecl, CookbookFileSummary } from "./cookbook-file-summary.ts";
import { summarizeCookbookFile } from "./summarize-cookbook-file.ts";

export interface LoadedFile {
  filePath: string;
  summary: CookbookFileSummary;
}

/** A module of the checkout: its file (a .py or a package's __init__.py), or a folder without __init__.py. */
export interface ModuleRef {
  file?: LoadedFile;
  /** The package folder submodules are looked up in (undefined for a plain .py module). */
  packageDir?: string;
}

export type Resolved =
  | { kind: "class"; file: LoadedFile; cls: ChzClassDecl }
  | { kind: "alias"; file: LoadedFile; text: string }
  | { kind: "function"; file: LoadedFile; name: string; firstParamAnnotation?: string }
  | { kind: "module"; module: ModuleRef }
  | { kind: "value"; file: LoadedFile; value: PyValue }
  /** A name from outside the checkout, as far as the import says, e.g. "tinker.types.LossFnType". */
  | { kind: "external"; qualified: string }
  | { kind: "unresolved" };

export interface CookbookModulesOptions {
  /** The folder holding the `tinker_cookbook/` package: absolute imports start there. */
  packageRoot: string | undefined;
  /** More folders absolute imports are looked up in after it, in order (a PYTHONPATH). */
  extraRoots?: readonly string[];
  parser: Parser;
  readFile: (filePath: string) => Promise<Uint8Array>;
  maxFileBytes: number;
  warnings: ScanWarning[];
}

const UNRESOLVED: Resolved = { kind: "unresolved" };
// Re-export chains are short; the bound stops import cycles.
const MAX_HOPS = 16;

export interface CookbookModules {
  /** The file's summary, parsed once per scan; undefined (with a warning) when it cannot be read or parsed. */
  load(filePath: string, bytes?: Uint8Array): Promise<LoadedFile | undefined>;
  /** The module a dotted absolute name (`pkg.mod`) is, looked up from the roots. */
  module(name: string): Promise<ModuleRef | undefined>;
  /** What the dotted `name` means in `file`, before source position `before` (default: the whole file). */
  resolve(file: LoadedFile, name: string[], before?: number): Promise<Resolved>;
}

/** Reading the checkout's files (each parsed once per scan) and finding the module an import names. */
function createModuleFinder(options: CookbookModulesOptions) {
  const loaded = new Map<string, Promise<LoadedFile | undefined>>();
  const folders = new Map<string, Promise<boolean>>();

  const isFolder = (dir: string): Promise<boolean> => {
    let known = folders.get(dir);
    if (!known) {
      known = stat(dir).then(
        (info) => info.isDirectory(),
        () => false,
      );
      folders.set(dir, known);
    }
    return known;
  };

  const isFile = (filePath: string): Promise<boolean> =>
    stat(filePath).then(
      (info) => info.isFile(),
      () => false,
    );

  async function readAndSummarize(filePath: string, given?: Uint8Array): Promise<LoadedFile | undefined> {
    let bytes: Uint8Array;
    if (given) bytes = given;
    else
      try {
        const info = await stat(filePath);
        if (info.size > options.maxFileBytes) {
          options.warnings.push({ filePath, message: `larger than ${options.maxFileBytes} bytes; not read` });
          return undefined;
        }
        bytes = await options.readFile(filePath);
      } catch (err) {
        options.warnings.push({
          filePath,
          message: `could not be read (${(err as NodeJS.ErrnoException).code ?? err}); skipped`,
        });
        return undefined;
      }
    const outcome = summarizeCookbookFile(options.parser, bytes);
    if (outcome.kind === "refused") {
      options.warnings.push({ filePath, message: outcome.message });
      return undefined;
    }
    return { filePath, summary: outcome.summary };
  }

  function load(filePath: string, bytes?: Uint8Array): Promise<LoadedFile | undefined> {
    let found = loaded.get(filePath);
    if (!found) {
      found = readAndSummarize(filePath, bytes);
      loaded.set(filePath, found);
    }
    return found;
  }

  /** The module at `base` (a path without extension): base.py, else the package base/ (with or without __init__). */
  async function moduleAt(base: string): Promise<ModuleRef | undefined> {
    if (await isFile(`${base}.py`)) {
      const file = await load(`${base}.py`);
      return file ? { file } : undefined;
    }
    if (!(await isFolder(base))) return undefined;
    const init = path.join(base, "__init__.py");
    const file = (await isFile(init)) ? await load(init) : undefined;
    return file ? { file, packageDir: base } : { packageDir: base };
  }

  /** The checkout module `module` names from `from` (leading dots: relative to it); undefined when outside. */
  async function findModule(from: LoadedFile | undefined, module: string): Promise<ModuleRef | undefined> {
    const dots = /^\.*/.exec(module)?.[0].length ?? 0;
    const parts = module.slice(dots).split(".").filter(Boolean);
    if (dots > 0) {
      if (!from) return undefined;
      let base = path.dirname(from.filePath);
      for (let up = 1; up < dots; up += 1) base = path.dirname(base);
      return parts.length === 0 ? moduleAt(base) : moduleUnder(base, parts);
    }
    if (parts.length === 0) return undefined;
    for (const root of [options.packageRoot, ...(options.extraRoots ?? [])]) {
      const found = root ? await moduleUnder(root, parts) : undefined;
      if (found) return found;
    }
    return undefined;
  }

  async function moduleUnder(root: string, parts: readonly string[]): Promise<ModuleRef | undefined> {
    let base = root;
    let current: ModuleRef | undefined;
    for (const part of parts) {
      base = path.join(base, part);
      current = await moduleAt(base);
      if (!current) return undefined;
    }
    return current;
  }

  return { load, moduleAt, findModule };
}

export function createCookbookModules(options: CookbookModulesOptions): CookbookModules {
  const { load, moduleAt, findModule } = createModuleFinder(options);

  /** `module.name`: a name the module binds, else its submodule `name` (what `from pkg import name` does). */
  async function member(module: ModuleRef, name: string, hops: number): Promise<Resolved> {
    if (module.file) {
      const bound = await resolveIn(module.file, [name], Number.POSITIVE_INFINITY, hops);
      if (bound.kind !== "unresolved") return bound;
    }
    if (!module.packageDir) return UNRESOLVED;
    const sub = await moduleAt(path.join(module.packageDir, name));
    return sub ? { kind: "module", module: sub } : UNRESOLVED;
  }

  async function resolveIn(file: LoadedFile, name: string[], before: number, hops: number): Promise<Resolved> {
    if (hops > MAX_HOPS) return UNRESOLVED;
    const [head, ...rest] = name;
    if (!head) return UNRESOLVED;
    let result = await resolveHead(file, head, before, hops + 1);
    for (const part of rest) {
      if (result.kind === "module") result = await member(result.module, part, hops + 1);
      else if (result.kind === "external") result = { kind: "external", qualified: `${result.qualified}.${part}` };
      else return UNRESOLVED;
    }
    return result;
  }

  async function resolveHead(file: LoadedFile, head: string, before: number, hops: number): Promise<Resolved> {
    const { summary } = file;
    let primary: (typeof summary.bindings)[number] | undefined;
    let fallback: (typeof summary.bindings)[number] | undefined;
    for (const entry of summary.bindings) {
      if (entry.order >= before) break;
      if (entry.name !== head) continue;
      if (entry.fallback) fallback = entry;
      else primary = entry;
    }
    const entry = primary ?? fallback;
    if (!entry) {
      if (summary.functions[head] !== undefined) {
        return { kind: "function", file, name: head, ...summary.functions[head] };
      }
      for (const star of summary.starImports) {
        const module = await findModule(file, star);
        const found = module ? await member(module, head, hops) : UNRESOLVED;
        if (found.kind !== "unresolved") return found;
      }
      return UNRESOLVED;
    }
    const binding = entry.binding;
    switch (binding.kind) {
      case "class": {
        const cls = summary.classes[binding.index];
        return cls ? { kind: "class", file, cls } : UNRESOLVED;
      }
      case "value": {
        const alias = summary.aliases[head];
        if (alias !== undefined) return { kind: "alias", file, text: alias };
        if (binding.value.kind === "ref") return resolveIn(file, binding.value.path, entry.order, hops);
        return { kind: "value", file, value: binding.value };
      }
      case "import-from": {
        const module = await findModule(file, binding.module);
        if (!module) return { kind: "external", qualified: `${binding.module}.${binding.name}` };
        return member(module, binding.name, hops);
      }
      case "import-module": {
        const module = await findModule(file, binding.module);
        return module ? { kind: "module", module } : { kind: "external", qualified: binding.module };
      }
    }
  }

  return {
    load,
    module: (name) => findModule(undefined, name),
    resolve: (file, name, before = Number.POSITIVE_INFINITY) => resolveIn(file, name, before, 0),
  };
}
