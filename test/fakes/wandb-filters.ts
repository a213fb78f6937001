// Mongo-style run filters as the WandB API reads them ($regex, equality, $and, $or, $in, ...), for the fake.

/** The run fields a filter may name, under WandB's camelCase and the SDK's snake_case spellings. */
export interface FilterableRun {
  name: string;
  displayName: string;
  group: string | null;
  state: string;
  createdAt: string;
  tags: string[];
}

const FIELD_ALIASES: Record<string, keyof FilterableRun> = {
  name: "name",
  displayName: "displayName",
  display_name: "displayName",
  group: "group",
  state: "state",
  createdAt: "createdAt",
  created_at: "createdAt",
  tags: "tags",
};

export class FilterError extends Error {}

/**
 * Whether run matches filter. Unknown fields and operators throw, so a client sending a filter the fake
 * cannot judge fails its test instead of silently matching everything.
 */
export function matchesFilter(run: FilterableRun, filter: unknown, regexCache = new Map<string, RegExp>()): boolean {
  if (!isObject(filter)) throw new FilterError(`A filter must be an object, got ${JSON.stringify(filter)}`);
  return Object.entries(filter).every(([key, condition]) => {
    if (key === "$and" || key === "$or" || key === "$nor") {
      if (!Array.isArray(condition)) throw new FilterError(`${key} needs a list`);
      const results = condition.map((sub: unknown) => matchesFilter(run, sub, regexCache));
      if (key === "$and") return results.every(Boolean);
      if (key === "$or") return results.some(Boolean);
      return !results.some(Boolean);
    }
    const field = FIELD_ALIASES[key];
    if (field === undefined) throw new FilterError(`The fake cannot filter on '${key}'`);
    return matchesCondition(run[field], condition, regexCache);
  });
}

function matchesCondition(value: unknown, condition: unknown, regexCache: Map<string, RegExp>): boolean {
  // A list field (tags) matches when any element does, as in Mongo.
  if (Array.isArray(value)) {
    return value.some((item) => matchesCondition(item, condition, regexCache));
  }
  if (!isOperatorObject(condition)) return value === condition;
  return Object.entries(condition).every(([op, arg]) => {
    switch (op) {
      case "$eq":
        return value === arg;
      case "$ne":
        return value !== arg;
      case "$in":
        if (!Array.isArray(arg)) throw new FilterError("$in needs a list");
        // A set per list, as a server's index lookup: a list of a thousand groups costs one probe per run.
        return setOf(arg).has(value);
      case "$nin":
        if (!Array.isArray(arg)) throw new FilterError("$nin needs a list");
        return !arg.includes(value);
      case "$regex": {
        if (typeof arg !== "string") throw new FilterError("$regex needs a string");
        let re = regexCache.get(arg);
        if (re === undefined) {
          re = new RegExp(arg);
          regexCache.set(arg, re);
        }
        return typeof value === "string" && re.test(value);
      }
      case "$exists":
        return (value !== null && value !== undefined) === Boolean(arg);
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte":
        return compare(value, arg, op);
      case "$not":
        return !matchesCondition(value, arg, regexCache);
      default:
        throw new FilterError(`The fake does not know the operator '${op}'`);
    }
  });
}

/** Each $in list of a parsed filter as a set, for as long as the filter lives. */
const LIST_SETS = new WeakMap<unknown[], Set<unknown>>();

function setOf(list: unknown[]): Set<unknown> {
  let set = LIST_SETS.get(list);
  if (set === undefined) {
    set = new Set(list);
    LIST_SETS.set(list, set);
  }
  return set;
}

function compare(value: unknown, arg: unknown, op: string): boolean {
  if (typeof value !== typeof arg || (typeof value !== "string" && typeof value !== "number")) return false;
  const a = value as string | number;
  const b = arg as string | number;
  if (op === "$gt") return a > b;
  if (op === "$gte") return a >= b;
  if (op === "$lt") return a < b;
  return a <= b;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return isObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => k.startsWith("$"));
}
