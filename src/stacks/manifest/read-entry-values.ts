// The values an entry file gives a class's fields (readers `pydantic` and `dataclass`): a TOML file (prime-rl's
// rl.toml) or a YAML file (a TRL recipe) read as leaves named by dotted path, laid over the fields the classes declare.
// A key the classes lack is shown too, with a warning: the trainer will likely refuse it.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse as parseToml, TomlDate } from "smol-toml";
import { readYamlFields, typeOf, type ReadEntry, type ReadField } from "./read-yaml-fields.ts";

/** Leaves of a parsed TOML table: nested tables flattened to a.b, arrays (of tables too) and empty tables kept whole. */
function tomlLeaves(table: Record<string, unknown>, prefix: string, out: ReadField[]): void {
  for (const [key, raw] of Object.entries(table)) {
    const name = prefix ? `${prefix}.${key}` : key;
    const value = JSON.parse(JSON.stringify(raw, (_k, v: unknown) => (v instanceof TomlDate ? v.toISOString() : v)));
    if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0) {
      tomlLeaves(raw as Record<string, unknown>, name, out);
      continue;
    }
    out.push({ name, ...typeOf(value), default: value, description: "" });
  }
}

/** A TOML entry's leaves and its leading comment's first line as its description. */
function readTomlEntry(file: string, maxBytes: number): ReadEntry {
  if (statSync(file).size > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
  const source = readFileSync(file, "utf8");
  let table: Record<string, unknown>;
  try {
    table = parseToml(source) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`not valid TOML: ${(err as Error).message.split("\n")[0]}`);
  }
  const fields: ReadField[] = [];
  tomlLeaves(table, "", fields);
  const comment = /^\s*#\s*(.*)/.exec(source.split("\n").find((line) => line.trim() !== "") ?? "");
  return { fields, description: comment?.[1]?.trim() ?? "", problems: [] };
}

/** An entry file's values, by its extension: .toml, else YAML. */
export function readEntryValues(file: string, maxBytes: number): ReadEntry {
  return path.extname(file) === ".toml" ? readTomlEntry(file, maxBytes) : readYamlFields(file, "yaml", maxBytes);
}

/** The classes' fields with the entry's values as their defaults, then the entry's keys no class declares. */
export function overlayValues(fields: readonly ReadField[], values: ReadEntry, classes: string): ReadEntry {
  const given = new Map(values.fields.map((f) => [f.name, f]));
  const out = fields.map((field) => {
    const value = given.get(field.name);
    if (!value) return { ...field };
    given.delete(field.name);
    const { defaultExpr: _computed, ...rest } = field;
    return { ...rest, default: value.default };
  });
  const problems = [...values.problems];
  // A table the classes declare as a section (`[inference]`, `[ckpt]`) turns it on: not a field of its own.
  const sections = new Set(
    fields.flatMap((f) =>
      f.name
        .split(".")
        .slice(0, -1)
        .map((_, i, a) => a.slice(0, i + 1).join(".")),
    ),
  );
  for (const [name, value] of given) {
    if (sections.has(name) && typeof value.default === "object") continue;
    out.push({ ...value, description: value.description || `from the entry file (not a field read from ${classes})` });
    problems.push(
      `${name}: not a field read from ${classes} (a field of one member of a union, or a key the trainer refuses)`,
    );
  }
  return { fields: out, description: values.description, problems };
}
