// The stable snake_case JSON shape of a scan, printed by `rl-chatops scan DIR --json`.
import type { ScanResult } from "./types.ts";

export interface ScanJsonField {
  name: string;
  type: string;
  default: unknown;
  /** Present when the default is an expression only known once the environment starts; default is then null. */
  default_expr?: string;
  description: string;
  locked: boolean;
}

export interface ScanJson {
  environments: Array<{
    name: string;
    class_name: string;
    file_path: string;
    /** The path relative to the scanned folder, which selects the environment even when its name is shared. */
    relative_path: string;
    description: string;
    config_class: string;
    /** False when `python FILE serve` would not start this class (no main block calling its cli()). */
    runnable: boolean;
    /** Why it is not runnable. */
    reason?: string;
    fields: ScanJsonField[];
  }>;
  warnings: Array<{ file_path: string; message: string }>;
}

export function toScanJson(result: ScanResult): ScanJson {
  return {
    environments: result.environments.map((env) => ({
      name: env.name,
      class_name: env.className,
      file_path: env.filePath,
      relative_path: env.relativePath,
      description: env.description,
      config_class: env.configClass,
      runnable: env.runnable,
      ...(env.notRunnableReason !== undefined ? { reason: env.notRunnableReason } : {}),
      fields: env.fields.map((field) => ({
        name: field.name,
        type: field.type,
        // JSON has no undefined: "not known statically" and Python None both print as null.
        default: field.default === undefined ? null : field.default,
        ...(field.defaultExpr !== undefined ? { default_expr: field.defaultExpr } : {}),
        description: field.description,
        locked: field.locked,
      })),
    })),
    warnings: result.warnings.map((warning) => ({ file_path: warning.filePath, message: warning.message })),
  };
}
