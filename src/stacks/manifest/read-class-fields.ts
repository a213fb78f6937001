// The config fields Python classes declare, for the manifest readers `pydantic` and `dataclass`: each class of
// entries.class found by its dotted name on entries.python_path (folders of the training root, like PYTHONPATH), read
// with tree-sitter and never run; inherited fields and nested config classes (`trainer.optim.lr`) as the cookbook's
// recipes are read. Several classes (TRL's script arguments, GRPOConfig, ModelConfig) share one namespace.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createCookbookModules } from "../../environments/recipes/cookbook-modules.ts";
import { CLASS_KINDS, readChzFields } from "../../environments/recipes/read-chz-fields.ts";
import { pythonParser } from "../../environments/threads/load-python-parser.ts";
import type { ScanWarning } from "../../environments/types.ts";
import type { StackManifest } from "./manifest-schema.ts";
import type { ReadField } from "./read-yaml-fields.ts";

export interface ClassFields {
  fields: ReadField[];
  /** Why some fields are missing or only partly known, one sentence each. */
  problems: string[];
}

/** The classes a manifest names, as a list. */
export const classesOf = (entries: StackManifest["entries"]): string[] =>
  entries.class === undefined ? [] : typeof entries.class === "string" ? [entries.class] : entries.class;

export async function readClassFields(
  root: string,
  entries: StackManifest["entries"],
  maxFileBytes: number,
): Promise<ClassFields> {
  const base = entries.fields === "pydantic" ? CLASS_KINDS.pydantic : CLASS_KINDS.dataclass;
  const kind = { ...base, rootBases: new Set([...base.rootBases, ...(entries.bases_without_fields ?? [])]) };
  const [first, ...more] = (entries.python_path ?? ["."]).map((p) => path.resolve(root, p));
  const warnings: ScanWarning[] = [];
  const modules = createCookbookModules({
    packageRoot: first,
    extraRoots: more,
    parser: pythonParser(),
    readFile: (file) => readFile(file),
    maxFileBytes,
    warnings,
  });
  const out: ClassFields = { fields: [], problems: [] };
  const seen = new Set<string>();
  for (const dotted of classesOf(entries)) {
    const parts = dotted.split(".");
    const module = await modules.module(parts.slice(0, -1).join("."));
    const found = module?.file && (await modules.resolve(module.file, parts.slice(-1)));
    if (!found || found.kind !== "class") {
      out.problems.push(
        `entries.class ${dotted}: no such class in ${(entries.python_path ?? ["."]).join(", ")} of the training root`,
      );
      continue;
    }
    const read = await readChzFields(modules, found, kind);
    out.problems.push(...read.problems.map((p) => `${found.cls.name}: ${p}`));
    for (const { locked: _locked, lockedValue: _value, ...field } of read.fields) {
      if (seen.has(field.name)) continue;
      seen.add(field.name);
      out.fields.push(field);
    }
  }
  out.problems.push(...warnings.map((w) => `${path.relative(root, w.filePath)}: ${w.message}`));
  return out;
}
