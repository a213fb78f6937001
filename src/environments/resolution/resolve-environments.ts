// The cheap, pure step after parsing: decides which classes are environments across all files and describes them.
import path from "node:path";
import type { ClassDecl, ConfigInitDecl } from "../python/python-file-summary.ts";
import { importBlocker } from "./check-importable.ts";
import { resolveConfigClass, type ClassRef } from "./resolve-config-class.ts";
import { resolveConfigFields } from "./resolve-config-fields.ts";
import { createSymbolResolver, isAtroposName, type SummarizedFile, type SymbolResolver } from "./resolve-symbols.ts";
import { createValueResolver, type ValueResolver } from "./resolve-values.ts";
import {
  createMemoReader,
  reachedSummaries,
  type FileResolution,
  type ResolutionInputs,
  type ResolutionMemo,
} from "./resolution-memo.ts";
import type { EnvironmentInfo, ScanResult, ScanWarning } from "../types.ts";

export interface ResolveEnvironmentsInput extends ResolutionInputs {
  /** The last resolution's findings: a file whose own and reached files are unchanged keeps its environments. */
  previous?: ResolutionMemo;
}

export interface Resolution {
  result: ScanResult;
  /** What the next resolution may keep. */
  memo: ResolutionMemo;
}

const MAX_DEPTH = 32;

export function resolveEnvironments(input: ResolveEnvironmentsInput): ScanResult {
  const steps = resolveEnvironmentsStepwise(input);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value.result;
  }
}

/** The same resolution, pausing after each file so a caller can give the event loop a turn between slices. */
export function* resolveEnvironmentsStepwise(input: ResolveEnvironmentsInput): Generator<void, Resolution, void> {
  const symbols = createSymbolResolver(input.files);
  const values = createValueResolver(symbols);
  const kept = createMemoReader(input.previous, input);
  const byKey = new Map<string, FileResolution>();
  const environments: EnvironmentInfo[] = [];
  const warnings: ScanWarning[] = [];

  for (const file of input.files) {
    // Like the seed: "_" files (helpers, __init__) hold no environments of their own, but may hold their bases.
    if (path.posix.basename(file.key).startsWith("_")) continue;
    const found = kept(file) ?? resolveFile(symbols, values, input, file);
    byKey.set(file.key, found);
    environments.push(...found.environments);
    warnings.push(...found.warnings);
    yield;
  }
  const settled = settleDuplicateNames(environments);
  warnings.push(...settled.warnings);
  return {
    result: { environments: settled.environments, warnings },
    memo: {
      lockedEnv: input.lockedEnv,
      baseFields: input.baseFields,
      keys: input.files.map((file) => file.key),
      byKey,
    },
  };
}

/** One file's environments and the problems met describing them, with every file that took part. */
function resolveFile(
  symbols: SymbolResolver,
  values: ValueResolver,
  input: ResolveEnvironmentsInput,
  file: SummarizedFile,
): FileResolution {
  const { value, reached } = symbols.reaching(() => {
    const fileName = path.posix.basename(file.key);
    // Its own memo: a class tested for another file would leave out the files its test looked at.
    const isEnvironment = createEnvironmentTest(symbols);
    const environments: EnvironmentInfo[] = [];
    const warnings: ScanWarning[] = [];
    for (const cls of file.summary.classes) {
      if (!isEnvironment(file, cls)) continue;
      const lineage = lineageOf(symbols, { file, cls });
      const configClass = resolveConfigClass(symbols, lineage);
      const configInitOwner = lineage.find((ref) => ref.cls.configInit);
      const configInit: ConfigInitDecl | undefined = configInitOwner?.cls.configInit;
      const { fields, problems } = resolveConfigFields(symbols, values, {
        ...(configClass.source ? { configClass: configClass.source } : {}),
        ...(configInitOwner && configInit ? { configInit: { file: configInitOwner.file, decl: configInit } } : {}),
        lockedEnv: input.lockedEnv,
        ...(input.baseFields ? { baseFields: input.baseFields } : {}),
      });
      environments.push({
        name: cls.envName ?? fileName.replace(/\.py$/, ""),
        className: cls.name,
        filePath: file.filePath,
        relativePath: file.key,
        description: cls.docstring ?? `Environment from ${fileName}`,
        configClass: configClass.name,
        fields,
        ...runnability(symbols, file, cls),
      });
      if (configClass.problem) problems.unshift(configClass.problem);
      for (const problem of problems) warnings.push({ filePath: file.filePath, message: `${cls.name}: ${problem}` });
    }
    return { environments, warnings };
  });
  return { filePath: file.filePath, summary: file.summary, reached: reachedSummaries(reached), ...value };
}

const MAIN = 'if __name__ == "__main__":';

/** Whether `python FILE serve` starts `cls`: the file must import as a script, and atroposlib's CLI runs only from its main block calling `cls.cli()`. */
function runnability(
  symbols: SymbolResolver,
  file: SummarizedFile,
  cls: ClassDecl,
): { runnable: boolean; notRunnableReason?: string } {
  const { main } = file.summary;
  const fileName = path.posix.basename(file.key);
  const blocker = importBlocker(file);
  if (blocker) return { runnable: false, notRunnableReason: blocker };
  if (!main.hasMainBlock)
    return {
      runnable: false,
      notRunnableReason: `${fileName} has no ${MAIN} block calling ${cls.name}.cli(), so python ${fileName} serve would not start it`,
    };
  const startsThis = main.cliCalls.some((target) => {
    const found = symbols.resolve(file, target);
    return found.kind === "class" && found.cls === cls;
  });
  if (startsThis) return { runnable: true };
  const others = main.cliCalls.map((target) => `${target.join(".")}.cli()`);
  const calls = others.length ? `calls ${others.join(", ")}, not ${cls.name}.cli()` : `calls no ${cls.name}.cli()`;
  return {
    runnable: false,
    notRunnableReason: `the ${MAIN} block of ${fileName} ${calls}, so python ${fileName} serve would not start it`,
  };
}

/** Folder depth, then path length, then path: the file nearest the environments root keeps a shared name. */
function nearness(a: EnvironmentInfo, b: EnvironmentInfo): number {
  const depth = (env: EnvironmentInfo) => env.relativePath.split("/").length;
  return (
    depth(a) - depth(b) || a.relativePath.length - b.relativePath.length || (a.relativePath < b.relativePath ? -1 : 1)
  );
}

// The seed let the first file in walk order take a name, so a community copy could hide the canonical
// environment; now the nearest keeps it and every other stays selectable by its path relative to the folder. The
// others are copies under their new names: the environments given are the memo's, kept for the next resolution.
function settleDuplicateNames(environments: readonly EnvironmentInfo[]): {
  environments: EnvironmentInfo[];
  warnings: ScanWarning[];
} {
  const byName = new Map<string, EnvironmentInfo[]>();
  for (const env of environments) byName.set(env.name, [...(byName.get(env.name) ?? []), env]);
  const renamed = new Map<EnvironmentInfo, EnvironmentInfo>();
  const warnings: ScanWarning[] = [];
  for (const [name, sharing] of byName) {
    if (sharing.length < 2) continue;
    const [keeper, ...others] = [...sharing].sort(nearness);
    if (!keeper) continue;
    for (const other of others) {
      const sameFile = sharing.filter((env) => env.relativePath === other.relativePath).length > 1;
      const newName = sameFile ? `${other.relativePath}:${other.className}` : other.relativePath;
      renamed.set(other, { ...other, name: newName });
      warnings.push({
        filePath: other.filePath,
        message: `duplicate environment name "${name}": ${keeper.relativePath} (class ${keeper.className}) keeps it, being nearest the folder's top; select ${other.className} from this file as "${newName}"`,
      });
    }
  }
  return { environments: environments.map((env) => renamed.get(env) ?? env), warnings };
}

/** True for classes deriving from atroposlib's BaseEnv directly or through classes of the folder. */
function createEnvironmentTest(symbols: SymbolResolver): (file: SummarizedFile, cls: ClassDecl) => boolean {
  const memo = new Map<ClassDecl, boolean>();
  const visiting = new Set<ClassDecl>();

  function test(file: SummarizedFile, cls: ClassDecl, depth: number): boolean {
    const known = memo.get(cls);
    if (known !== undefined) return known;
    // A class met again on the way up is an inheritance cycle: it leads nowhere, and must not loop.
    if (visiting.has(cls) || depth > MAX_DEPTH) return false;
    visiting.add(cls);
    const result = cls.bases.some((base) => {
      if (!base) return false;
      const found = symbols.resolve(file, base, cls.order);
      if (found.kind === "class") return test(found.file, found.cls, depth + 1);
      return isAtroposName(found, "BaseEnv");
    });
    visiting.delete(cls);
    memo.set(cls, result);
    return result;
  }

  return (file, cls) => test(file, cls, 0);
}

/** The class and its folder ancestors, depth-first left to right: where inherited class attributes come from. */
function lineageOf(symbols: SymbolResolver, start: ClassRef): ClassRef[] {
  const lineage: ClassRef[] = [];
  const seen = new Set<ClassDecl>();
  const visit = (ref: ClassRef): void => {
    if (seen.has(ref.cls) || lineage.length > MAX_DEPTH) return;
    seen.add(ref.cls);
    lineage.push(ref);
    for (const base of ref.cls.bases) {
      if (!base) continue;
      const found = symbols.resolve(ref.file, base, ref.cls.order);
      if (found.kind === "class") visit({ file: found.file, cls: found.cls });
    }
  };
  visit(start);
  return lineage;
}
