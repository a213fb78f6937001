// What one parse of a cookbook Python file leaves behind: chz classes, aliases, functions, imports and the entry point.
import type { Binding, PyValue } from "../python/python-file-summary.ts";

/** An annotated attribute of a class: a chz field when the class is a chz class. */
export interface ChzFieldDecl {
  /** The name as written; chz strips an `X_` prefix for the name argv and __init__ use. */
  name: string;
  /** The annotation as written, whitespace collapsed. */
  annotation: string;
  /** `missing` when there is no default (the field is required). */
  default: PyValue | { kind: "missing" };
  /** Set for `chz.field(default_factory=...)`: the default is computed when the config is built. */
  factory?: string;
  /**
   * `chz.field(doc=...)`, pydantic's `Field(description=...)`, a dataclass `field(metadata={"help": ...})`, else the
   * string just below (an attribute docstring), else the trailing comment, else the comment lines just above.
   */
  description?: string;
}

export interface ChzClassDecl {
  name: string;
  /** Source position of the class statement: its bases are the bindings made before it. */
  order: number;
  /** Decorated with `@chz.chz` (or `@chz`, `@chz.chz(...)`). */
  isChz: boolean;
  /** Decorated with `@dataclass` (or `@dataclasses.dataclass`, `@dataclass(...)`). */
  isDataclass?: boolean;
  /** Dotted base names; null for bases that cannot be followed (calls, subscripts). */
  bases: Array<string[] | null>;
  docstring?: string;
  fields: ChzFieldDecl[];
  /** For an Enum subclass whose members are all literals: the members' names and values, in order. */
  enumMembers?: Array<{ name: string; value: string | number | boolean }>;
}

/** What the `if __name__ == "__main__":` block hands to chz. */
export type ChzEntry =
  /** `chz.entrypoint(Target, ...)`: Target is the config class (a dotted name). */
  | { kind: "entrypoint"; target: string[] }
  /** `chz.nested_entrypoint(fn)`: the config class is the annotation of fn's first parameter. */
  | { kind: "nested"; target: string[] }
  /** An entry point whose target is not a name (a lambda, a call): its source text. */
  | { kind: "opaque"; text: string };

export interface CookbookFileSummary {
  /** First non-blank line of the module docstring. */
  docstring?: string;
  classes: ChzClassDecl[];
  /** Module-level bindings in source order (classes, imports, values), as the Atropos summary has them. */
  bindings: Array<{ name: string; order: number; binding: Binding; fallback?: boolean }>;
  starImports: string[];
  /** `NAME = Literal[...]`-like module assignments whose value reads as a type: the annotation text by name. */
  aliases: Record<string, string>;
  /** Module-level functions by name: the first parameter's annotation text, when annotated. */
  functions: Record<string, { firstParamAnnotation?: string }>;
  /** The chz entry point of the main block, if any. */
  entry?: ChzEntry;
}

export type CookbookFileOutcome =
  { kind: "summary"; summary: CookbookFileSummary } | { kind: "refused"; message: string };
