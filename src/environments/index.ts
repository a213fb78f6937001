// The public face of environment discovery; the other files here are its parts.
export { BASE_ENV_CONFIG_FIELDS, EVAL_HANDLING_VALUES, type BaseEnvConfigField } from "./base-env-config.ts";
export { parseAnnotation, type EnumResolver } from "./parse-annotation.ts";
export {
  createEnvironmentScanner,
  type EnvironmentScanner,
  type EnvironmentScannerOptions,
  type ScanStats,
} from "./scanner.ts";
export { toScanJson, type ScanJson, type ScanJsonField } from "./scan-json.ts";
export type { ConfigField, EnvironmentInfo, FieldType, ScanResult, ScanWarning } from "./types.ts";
