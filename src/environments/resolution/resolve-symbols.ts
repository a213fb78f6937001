// Follows a name used in one file to what it means: a class in the scanned folder, a value, or an outside module's name.
import path from "node:path";
import type { Binding, ClassDecl, FileSummary, PyValue } from "../python/python-file-summary.ts";

export interface SummarizedFile {
  key: string;
  filePath: string;
  summary: FileSummary;
}

export type Resolved =
  | { kind: "class"; file: SummarizedFile; cls: ClassDecl }
  /** A name from outside the folder, fully qualified when the import says where from, e.g. "atroposlib.envs.base.BaseEnv". */
  | { kind: "external"; qualified: string }
  | { kind: "value"; value: PyValue }
  | { kind: "unresolved" };

export interface SymbolResolver {
  /** Resolve `path` (a dotted name) as seen from `file`, before source position `before` (default: end of file). */
  resolve(file: SummarizedFile, path: string[], before?: number): Resolved;
  /**
   * Runs `work` and says which files the resolutions inside it looked at: "every" when a name was searched for in
   * every file of the folder. Files the folder does not have are not listed (a new file changes the whole folder).
   */
  reaching<T>(work: () => T): { value: T; reached: ReadonlySet<SummarizedFile> | "every" };
}

interface BoundName {
  order: number;
  binding: Binding;
}

const UNRESOLVED: Resolved = { kind: "unresolved" };
// Re-export chains are short; the bound stops import cycles between folder files.
const MAX_HOPS = 16;

// `try: from atroposlib... import BaseEnv / except ImportError: BaseEnv = object` means Atropos's class
// wherever it is installed, so bindings made in except clauses count second: when nothing else binds the
// name, or when the first binding leads to no class of the folder (`try: from .cfg import C / except
// ImportError: from cfg import C` names the same sibling file both ways, as a package and as a script).
function lookupBinding(
  file: SummarizedFile,
  name: string,
  before: number,
): { primary?: BoundName; fallback?: BoundName } {
  let primary: BoundName | undefined;
  let fallback: BoundName | undefined;
  for (const entry of file.summary.bindings) {
    if (entry.order >= before) break;
    if (entry.name !== name) continue;
    if (entry.fallback) fallback = entry;
    else primary = entry;
  }
  return { ...(primary ? { primary } : {}), ...(fallback ? { fallback } : {}) };
}

/** The folder's module a dotted import names from a file (leading dots: relative to it); undefined when outside. */
function moduleFinder(byKey: ReadonlyMap<string, SummarizedFile>) {
  function lookupPath(baseDir: string, parts: string[]): SummarizedFile | undefined {
    const joined = path.posix.join(baseDir, ...parts);
    return byKey.get(`${joined}.py`) ?? byKey.get(path.posix.join(joined, "__init__.py"));
  }

  function findModule(from: SummarizedFile, module: string): SummarizedFile | undefined {
    const dots = /^\.*/.exec(module)?.[0].length ?? 0;
    const parts = module
      .slice(dots)
      .split(".")
      .filter((part) => part.length > 0);
    const fromDir = path.posix.dirname(from.key);
    if (dots > 0) {
      let base = fromDir;
      for (let up = 1; up < dots; up += 1) base = path.posix.dirname(base);
      return lookupPath(base, parts);
    }
    // Atropos's own modules are never the folder's files, even when a file is called base.py.
    if (parts.length === 0 || parts[0] === "atroposlib") return undefined;
    // Environments run as scripts, so siblings import each other by bare name; a package prefix
    // (tinker_atropos.environments.common) may also name a file of the folder, so try shorter tails.
    for (let start = 0; start < parts.length; start += 1) {
      const tail = parts.slice(start);
      const found = lookupPath(fromDir, tail) ?? lookupPath(".", tail);
      if (found) return found;
    }
    return undefined;
  }
  return findModule;
}

export function createSymbolResolver(files: readonly SummarizedFile[]): SymbolResolver {
  const findModule = moduleFinder(new Map(files.map((file) => [file.key, file])));
  let reached: Set<SummarizedFile> | "every" | undefined;

  function findClassByName(file: SummarizedFile, name: string): Resolved {
    const own = file.summary.classes.find((cls) => cls.name === name);
    if (own) return { kind: "class", file, cls: own };
    // Any file may come to hold a class of this name first.
    if (reached) reached = "every";
    for (const other of files) {
      const cls = other.summary.classes.find((candidate) => candidate.name === name);
      if (cls) return { kind: "class", file: other, cls };
    }
    return UNRESOLVED;
  }

  function resolveUnbound(file: SummarizedFile, parts: string[], hops: number): Resolved {
    const [head, ...rest] = parts;
    if (!head) return UNRESOLVED;
    for (const star of file.summary.starImports) {
      const module = findModule(file, star);
      const found = module ? resolve(module, parts, Infinity, hops + 1) : UNRESOLVED;
      if (found.kind !== "unresolved") return found;
      if (!module && star.startsWith("atroposlib"))
        return { kind: "external", qualified: `${star}.${parts.join(".")}` };
    }
    if (head === "atroposlib") return { kind: "external", qualified: parts.join(".") };
    if (rest.length > 0) return UNRESOLVED;
    const byName = findClassByName(file, head);
    if (byName.kind !== "unresolved") return byName;
    // The seed accepted a bare BaseEnv however it got there; with no class of that name in the folder,
    // it can only be Atropos's (through a re-export we cannot see).
    if (head === "BaseEnv" || head === "BaseEnvConfig")
      return { kind: "external", qualified: `atroposlib.envs.base.${head}` };
    return UNRESOLVED;
  }

  function resolveImportFrom(
    file: SummarizedFile,
    module: string,
    name: string,
    rest: string[],
    hops: number,
  ): Resolved {
    const source = findModule(file, module);
    if (source) {
      const found = resolve(source, [name, ...rest], Infinity, hops + 1);
      if (found.kind !== "unresolved") return found;
    }
    const submodule =
      rest.length > 0 ? findModule(file, module.endsWith(".") ? `${module}${name}` : `${module}.${name}`) : undefined;
    if (submodule) {
      const found = resolve(submodule, rest, Infinity, hops + 1);
      if (found.kind !== "unresolved") return found;
    }
    return { kind: "external", qualified: [module, name, ...rest].join(".").replace(/^\.+/, "") };
  }

  function resolveImportModule(file: SummarizedFile, module: string, rest: string[], hops: number): Resolved {
    const full = [...module.split("."), ...rest];
    for (let split = full.length - 1; split >= 1; split -= 1) {
      const source = findModule(file, full.slice(0, split).join("."));
      if (!source) continue;
      const found = resolve(source, full.slice(split), Infinity, hops + 1);
      if (found.kind !== "unresolved") return found;
    }
    return { kind: "external", qualified: full.join(".") };
  }

  function resolve(file: SummarizedFile, parts: string[], before = Infinity, hops = 0): Resolved {
    const [head] = parts;
    if (!head || hops > MAX_HOPS) return UNRESOLVED;
    if (reached && reached !== "every") reached.add(file);
    const { primary, fallback } = lookupBinding(file, head, before);
    const first = primary ?? fallback;
    if (!first) return resolveUnbound(file, parts, hops);
    const found = resolveBound(file, first, parts, hops);
    if (found.kind === "class" || !primary || !fallback) return found;
    const second = resolveBound(file, fallback, parts, hops);
    return second.kind === "class" ? second : found;
  }

  function resolveBound(file: SummarizedFile, found: BoundName, parts: string[], hops: number): Resolved {
    const rest = parts.slice(1);
    const binding = found.binding;
    switch (binding.kind) {
      case "class": {
        const cls = file.summary.classes[binding.index];
        return cls && rest.length === 0 ? { kind: "class", file, cls } : UNRESOLVED;
      }
      case "value":
        // `Base = BaseEnv` style aliases are followed from where they were written.
        if (binding.value.kind === "ref") return resolve(file, [...binding.value.path, ...rest], found.order, hops + 1);
        return rest.length === 0 ? { kind: "value", value: binding.value } : UNRESOLVED;
      case "import-from":
        return resolveImportFrom(file, binding.module, binding.name, rest, hops);
      case "import-module":
        return resolveImportModule(file, binding.module, rest, hops);
    }
  }

  /** Not nested: one recording at a time. */
  function reaching<T>(work: () => T): { value: T; reached: ReadonlySet<SummarizedFile> | "every" } {
    reached = new Set();
    try {
      const value = work();
      return { value, reached };
    } finally {
      reached = undefined;
    }
  }

  return { resolve: (file, parts, before) => resolve(file, parts, before), reaching };
}

/** True when a resolved name is atroposlib's `name` (BaseEnv, BaseEnvConfig, EvalHandlingEnum). */
export function isAtroposName(resolved: Resolved, name: string): boolean {
  if (resolved.kind !== "external") return false;
  const parts = resolved.qualified.split(".");
  return parts[0] === "atroposlib" && parts.at(-1) === name;
}
