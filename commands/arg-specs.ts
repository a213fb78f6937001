// Describes a command's arguments (name, type, required, description) from its zod schema, for every front end.
import { z } from "zod";
import type { AnyCommand } from "./types.ts";

export type ArgType = "string" | "integer" | "number" | "boolean" | "array";

export interface ArgSpec {
  name: string;
  type: ArgType;
  required: boolean;
  description: string;
  choices?: Array<string | number>;
  default?: unknown;
  positional: boolean;
}

interface JsonSchemaProp {
  type?: string;
  enum?: Array<string | number>;
  description?: string;
  default?: unknown;
  anyOf?: JsonSchemaProp[];
}

const cache = new WeakMap<AnyCommand, ArgSpec[]>();

/** The JSON Schema of a command's arguments, as the LLM tools and Discord options see it. */
export function argsJsonSchema(command: AnyCommand): Record<string, unknown> {
  return z.toJSONSchema(command.args, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

export function argSpecs(command: AnyCommand): ArgSpec[] {
  const hit = cache.get(command);
  if (hit) return hit;
  const schema = argsJsonSchema(command) as { properties?: Record<string, JsonSchemaProp>; required?: string[] };
  const positional = command.positional ?? [];
  const specs = Object.entries(schema.properties ?? {}).map(([name, prop]): ArgSpec => {
    const p = prop.anyOf?.find((x) => x.type !== "null") ?? prop;
    const type: ArgType = p.enum
      ? typeof p.enum[0] === "number"
        ? "number"
        : "string"
      : p.type === "integer" || p.type === "number" || p.type === "boolean" || p.type === "array"
        ? p.type
        : "string";
    return {
      name,
      type,
      required: (schema.required ?? []).includes(name) && prop.default === undefined,
      description: prop.description ?? p.description ?? name,
      ...(p.enum ? { choices: p.enum } : {}),
      ...(prop.default !== undefined ? { default: prop.default } : {}),
      positional: positional.includes(name),
    };
  });
  specs.sort((a, b) => {
    const ia = positional.indexOf(a.name);
    const ib = positional.indexOf(b.name);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });
  cache.set(command, specs);
  return specs;
}

/** "/rl set <field> <value...> [--flag N]" */
export function usageOf(command: AnyCommand): string {
  const parts = [`/rl ${command.name}`];
  const specs = argSpecs(command);
  const last = command.positional?.at(-1);
  for (const spec of specs) {
    const label = spec.choices ? spec.choices.join("|") : spec.name;
    if (spec.positional) {
      const word = `${label}${command.restOfLine && spec.name === last ? "..." : ""}`;
      parts.push(spec.required ? `<${word}>` : `[${word}]`);
    } else {
      const flag =
        spec.type === "boolean"
          ? `--${spec.name}`
          : `--${spec.name} ${spec.type === "integer" || spec.type === "number" ? "N" : spec.name.toUpperCase()}`;
      parts.push(spec.required ? flag : `[${flag}]`);
    }
  }
  return parts.join(" ");
}
