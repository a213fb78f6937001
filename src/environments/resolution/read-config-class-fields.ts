// A config class's fields as its own source file defines them (atroposlib's BaseEnvConfig, tinker-atropos's TinkerConfig):
// names, types, defaults, bounds, descriptions verbatim.
import type { BaseEnvConfigField } from "./base-env-config.ts";
import { applyFieldBounds } from "./apply-field-bounds.ts";
import { parseAnnotation } from "../python/parse-annotation.ts";
import type { FileSummary } from "../python/python-file-summary.ts";
import { createSymbolResolver, type SummarizedFile } from "./resolve-symbols.ts";
import { createValueResolver } from "./resolve-values.ts";

/** The fields of `class <className>` in a file's summary; undefined when the file has no such class with fields. */
export function readConfigClassFields(
  summary: FileSummary,
  filePath: string,
  className: string,
): BaseEnvConfigField[] | undefined {
  const file: SummarizedFile = { key: "config.py", filePath, summary };
  const cls = summary.classes.find((c) => c.name === className);
  if (!cls || cls.fields.length === 0) return undefined;
  const values = createValueResolver(createSymbolResolver([file]));
  return cls.fields.map((decl) => {
    const field: BaseEnvConfigField = {
      name: decl.name,
      type: decl.annotation,
      fieldType: parseAnnotation(decl.annotation, (name) => values.enumValues(file, name)),
      default: values.toJs(file, decl.default),
      description: decl.description ?? "",
    };
    if (field.default === undefined && decl.default.kind === "expr") field.defaultExpr = decl.default.text;
    applyFieldBounds(field, decl);
    return field;
  });
}
