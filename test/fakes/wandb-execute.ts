// Runs a parsed GraphQL operation against plain objects whose fields may be resolver functions, for the fake WandB.
import { resolveValue } from "./wandb-graphql-parse.ts";
import type { GqlField, GqlOperation } from "./wandb-graphql-parse.ts";

/** Marks an object as a GraphQL object type (it needs a selection set) and names it for __typename. */
export const TYPE_NAME = Symbol("typeName");

export type Resolver = (args: Record<string, unknown>) => unknown;
export type GqlObject = { [TYPE_NAME]: string } & Record<string, unknown>;

export class GqlExecutionError extends Error {}

export function gqlObject(typeName: string, fields: Record<string, unknown>): GqlObject {
  return { [TYPE_NAME]: typeName, ...fields };
}

/** The variables the operation sees: the request's, with the declared defaults filled in and required ones checked. */
export function bindVariables(operation: GqlOperation, given: Record<string, unknown>): Record<string, unknown> {
  const bound: Record<string, unknown> = { ...given };
  for (const def of operation.variables) {
    if (bound[def.name] === undefined && def.defaultValue !== undefined) {
      bound[def.name] = resolveValue(def.defaultValue, {});
    }
    if (def.type.endsWith("!") && (bound[def.name] === undefined || bound[def.name] === null)) {
      throw new GqlExecutionError(`Variable "$${def.name}" of required type "${def.type}" was not provided.`);
    }
  }
  return bound;
}

export function execute(root: GqlObject, operation: GqlOperation, variables: Record<string, unknown>): unknown {
  return selectFields(root, operation.selections, variables);
}

function selectFields(value: unknown, selections: GqlField[], variables: Record<string, unknown>): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => selectFields(item, selections, variables));
  if (!isGqlObject(value)) throw new GqlExecutionError("A selection set was given on a scalar field");
  const result: Record<string, unknown> = {};
  for (const field of selections) {
    const key = field.alias ?? field.name;
    if (field.name === "__typename") {
      result[key] = value[TYPE_NAME];
      continue;
    }
    if (!Object.hasOwn(value, field.name)) {
      throw new GqlExecutionError(`Cannot query field "${field.name}" on type "${value[TYPE_NAME]}".`);
    }
    let resolved: unknown = value[field.name];
    if (typeof resolved === "function") {
      const args = Object.fromEntries(
        Object.entries(field.args).map(([name, arg]) => [name, resolveValue(arg, variables)]),
      );
      resolved = (resolved as Resolver)(args);
    }
    if (field.selections) result[key] = selectFields(resolved, field.selections, variables);
    else if (isGqlObject(resolved) || (Array.isArray(resolved) && resolved.some(isGqlObject))) {
      throw new GqlExecutionError(
        `Field "${field.name}" of type "${value[TYPE_NAME]}" must have a selection of subfields.`,
      );
    } else result[key] = resolved;
  }
  return result;
}

function isGqlObject(value: unknown): value is GqlObject {
  return typeof value === "object" && value !== null && TYPE_NAME in value;
}
