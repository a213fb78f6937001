// The cheap, pure step after parsing: decides which classes are environments across all files and describes them.
import path from "node:path";
import type { ClassDecl, ConfigInitDecl } from "./python-file-summary.ts";
import { resolveConfigClass, type ClassRef } from "./resolve-config-class.ts";
import { resolveConfigFields } from "./resolve-config-fields.ts";
import { createSymbolResolver, isAtroposName, type SummarizedFile, type SymbolResolver } from "./resolve-symbols.ts";
import { createValueResolver } from "./resolve-values.ts";
import type { EnvironmentInfo, ScanResult, ScanWarning } from "./types.ts";

export interface ResolveEnvironmentsInput {
  /** Every successfully summarized file of the folder, sorted by key; "_" files included, as bases. */
  files: readonly SummarizedFile[];
  lockedEnv: Record<string, unknown>;
}

const MAX_DEPTH = 32;

export function resolveEnvironments(input: ResolveEnvironmentsInput): ScanResult {
  const steps = resolveEnvironmentsStepwise(input);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** The same resolution, pausing after each file so a caller can give the event loop a turn between slices. */
export function* resolveEnvironmentsStepwise(input: ResolveEnvironmentsInput): Generator<void, ScanResult, void> {
  const symbols = createSymbolResolver(input.files);
  const values = createValueResolver(symbols);
  const isEnvironment = createEnvironmentTest(symbols);
  const environments: EnvironmentInfo[] = [];
  const warnings: ScanWarning[] = [];
  const firstByName = new Map<string, EnvironmentInfo>();

  for (const file of input.files) {
    const fileName = path.posix.basename(file.key);
    // Like the seed: "_" files (helpers, __init__) hold no environments of their own, but may hold their bases.
    if (fileName.startsWith("_")) continue;
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
      });
      const info: EnvironmentInfo = {
        name: cls.envName ?? fileName.replace(/\.py$/, ""),
        className: cls.name,
        filePath: file.filePath,
        description: cls.docstring ?? `Environment from ${fileName}`,
        configClass: configClass.name,
        fields,
      };
      if (configClass.problem) problems.unshift(configClass.problem);
      for (const problem of problems) warnings.push({ filePath: file.filePath, message: `${cls.name}: ${problem}` });
      const first = firstByName.get(info.name);
      if (first) {
        warnings.push({
          filePath: file.filePath,
          message: `duplicate environment name "${info.name}" (class ${cls.name}); keeping ${first.className} from ${first.filePath}`,
        });
        continue;
      }
      firstByName.set(info.name, info);
      environments.push(info);
    }
    yield;
  }
  return { environments, warnings };
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
