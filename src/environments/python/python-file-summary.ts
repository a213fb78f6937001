// What one parse of a Python file leaves behind: plain data, cached by content hash and resolved across files later.

/** A Python expression as far as it can be known without running anything. */
export type PyValue =
  | { kind: "literal"; value: unknown }
  /** A (dotted) name, e.g. a module constant or an enum member; resolved against the folder later. */
  | { kind: "ref"; path: string[] }
  /** An expression only running the code could evaluate (a call, an f-string, a comprehension): its source text. */
  | { kind: "expr"; text: string }
  | { kind: "unknown" };

/** An annotated class attribute: a pydantic field when the class is a config class. */
export interface FieldDecl {
  name: string;
  /** The annotation as written, whitespace collapsed. */
  annotation: string;
  /** unknown when required (no default, `...`) or not literal. */
  default: PyValue;
  description?: string;
  ge?: number;
  gt?: number;
  le?: number;
  lt?: number;
  /** Field(min_length=, max_length=) (min_items/max_items in pydantic 1). */
  minLength?: number;
  maxLength?: number;
}

export interface ConfigInitDecl {
  /** The callee that builds the returned config (`MyConfig`, `cls.env_config_cls`): atroposlib takes its type. */
  configClass?: string[];
  /** Keyword arguments given to the config constructor, then `cfg.x = ...` assignments, in source order. */
  overrides: Array<{ name: string; value: PyValue }>;
}

export interface ClassDecl {
  name: string;
  /** Position of the class statement in the file: bases are looked up among the bindings made before it. */
  order: number;
  line: number;
  /** Dotted base names; null for base expressions that cannot be followed (calls, subscripts). */
  bases: Array<string[] | null>;
  /** First non-blank line of the docstring. */
  docstring?: string;
  /** The `name = "..."` class attribute, when it is a string literal. */
  envName?: string;
  /** The `env_config_cls = X` class attribute, as a dotted name. */
  envConfigCls?: string[];
  fields: FieldDecl[];
  configInit?: ConfigInitDecl;
  /** Plain `NAME = value` assignments in the body: an Enum's members. */
  members: Array<{ name: string; value: PyValue }>;
}

export type Binding =
  | { kind: "class"; index: number }
  /** `from MODULE import NAME [as LOCAL]`; MODULE keeps its leading dots. */
  | { kind: "import-from"; module: string; name: string }
  /** `import a.b.c` binds `a` to module "a"; `import a.b.c as x` binds `x` to "a.b.c". */
  | { kind: "import-module"; module: string }
  | { kind: "value"; value: PyValue };

/** The file's `if __name__ == "__main__":` entry point, as far as it can be read without running it. */
export interface MainEntry {
  hasMainBlock: boolean;
  /** Dotted names X of the `X.cli()` calls the block makes (directly or through a module-level function it calls). */
  cliCalls: string[][];
}

export interface FileSummary {
  classes: ClassDecl[];
  main: MainEntry;
  /** Module-level name bindings in source order; the last one before a use wins, as in Python. */
  bindings: Array<{
    name: string;
    order: number;
    binding: Binding;
    fallback?: boolean;
    /** Inside a try statement: a failing import there may be planned for. */
    guarded?: boolean;
  }>;
  /** Modules imported with `from MODULE import *`. */
  starImports: string[];
}

/** The per-file result that is cached: a summary, or the reason the file was refused. */
export type FileOutcome = { kind: "summary"; summary: FileSummary } | { kind: "refused"; message: string };
