// What discovery learns about environments, without running them.

/** A config field's type, parsed from its Python annotation. */
export type FieldType =
  | { kind: "int" }
  | { kind: "float" }
  | { kind: "bool" }
  | { kind: "str" }
  | { kind: "optional"; inner: FieldType }
  /** List, Sequence, Tuple[X, ...]; Set and FrozenSet are unique (pydantic drops repeats). */
  | { kind: "list"; item: FieldType; unique?: boolean }
  /** Tuple[A, B]: exactly one item of each type, in order. */
  | { kind: "tuple"; items: FieldType[] }
  | { kind: "enum"; values: Array<string | number | boolean> }
  /** Dict[K, V]: key and value types when given (JSON keys are text; pydantic converts them to K). */
  | { kind: "dict"; key?: FieldType; value?: FieldType }
  | { kind: "any" };

export interface ConfigField {
  name: string;
  /** The annotation as written in Python, e.g. "Optional[int]" (shown to people). */
  type: string;
  fieldType: FieldType;
  /** Default after config_init() literal overrides; undefined when it cannot be known statically. */
  default: unknown;
  /** The source text of a default only running the code can know (`os.path.join(...)`); default is then undefined. */
  defaultExpr?: string;
  description: string;
  locked: boolean;
  /** The value the locked fields file forces, when locked. */
  lockedValue?: unknown;
  /** Numeric bounds from Field(ge=, le=, gt=, lt=) when given literally. */
  min?: number;
  max?: number;
  /** True when min came from gt= (the bound itself is not allowed). */
  minExclusive?: boolean;
  /** True when max came from lt= (the bound itself is not allowed). */
  maxExclusive?: boolean;
  /** Field(min_length=, max_length=): characters of text, items of a list, entries of a dict. */
  minLength?: number;
  maxLength?: number;
}

export interface EnvironmentInfo {
  name: string;
  className: string;
  filePath: string;
  /** The file's path relative to the environments folder, with "/": selects the environment unambiguously. */
  relativePath: string;
  description: string;
  configClass: string;
  fields: ConfigField[];
  /** The file's `if __name__ == "__main__":` block calls this class's cli(), so `python FILE serve` starts it. */
  runnable: boolean;
  /** Why `python FILE serve` would not start it, when not runnable. */
  notRunnableReason?: string;
}

export interface ScanWarning {
  filePath: string;
  message: string;
}

export interface ScanResult {
  environments: EnvironmentInfo[];
  warnings: ScanWarning[];
  /** Where BaseEnvConfig's fields came from: atroposlib's source file, or undefined for the bot's bundled table. */
  baseConfigSource?: string;
  /** The trainer's TinkerConfig fields as tinker_atropos/config.py defines them, when the training root has it. */
  trainerFields?: Array<Omit<ConfigField, "locked" | "lockedValue">>;
  trainerConfigSource?: string;
}
