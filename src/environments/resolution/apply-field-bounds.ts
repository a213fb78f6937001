// Copies a field declaration's Field(ge=, gt=, le=, lt=, min_length=, max_length=) onto the field as shown and checked.
import type { FieldDecl } from "../python/python-file-summary.ts";
import type { ConfigField } from "../types.ts";

type Bounds = Pick<ConfigField, "min" | "max" | "minExclusive" | "maxExclusive" | "minLength" | "maxLength">;

export function applyFieldBounds(field: Bounds, decl: FieldDecl): void {
  const min = decl.ge ?? decl.gt;
  const max = decl.le ?? decl.lt;
  if (min !== undefined) field.min = min;
  if (decl.ge === undefined && decl.gt !== undefined) field.minExclusive = true;
  if (max !== undefined) field.max = max;
  if (decl.le === undefined && decl.lt !== undefined) field.maxExclusive = true;
  if (decl.minLength !== undefined) field.minLength = decl.minLength;
  if (decl.maxLength !== undefined) field.maxLength = decl.maxLength;
}
