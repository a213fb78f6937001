// A small GraphQL reader for the fake WandB: one operation, fields, aliases, arguments and variable defaults.

export type GqlValue =
  | { kind: "variable"; name: string }
  | { kind: "literal"; value: unknown }
  | { kind: "list"; items: GqlValue[] }
  | { kind: "object"; fields: Record<string, GqlValue> };

export interface GqlField {
  name: string;
  alias?: string;
  args: Record<string, GqlValue>;
  /** Undefined for a leaf (scalar) field. */
  selections?: GqlField[];
}

export interface GqlVariableDefinition {
  name: string;
  type: string;
  defaultValue?: GqlValue;
}

export interface GqlOperation {
  operationName: string | null;
  variables: GqlVariableDefinition[];
  selections: GqlField[];
}

type Token = { kind: "name" | "punct" | "string" | "number"; text: string };

export class GqlSyntaxError extends Error {}

/** Parse a query document; fragments and mutations are refused, since no WandB read here needs them. */
export function parseOperation(source: string): GqlOperation {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const next = (): Token => {
    const t = tokens[pos++];
    if (!t) throw new GqlSyntaxError("Unexpected end of query");
    return t;
  };
  const expect = (text: string): void => {
    const t = next();
    if (t.text !== text) throw new GqlSyntaxError(`Expected '${text}' but found '${t.text}'`);
  };
  const isPunct = (text: string): boolean => peek()?.kind === "punct" && peek()?.text === text;
  const name = (): string => {
    const t = next();
    if (t.kind !== "name") throw new GqlSyntaxError(`Expected a name but found '${t.text}'`);
    return t.text;
  };

  const parseType = (): string => {
    let type: string;
    if (isPunct("[")) {
      next();
      type = `[${parseType()}]`;
      expect("]");
    } else type = name();
    if (isPunct("!")) {
      next();
      type += "!";
    }
    return type;
  };

  const parseValue = (): GqlValue => {
    const t = next();
    if (t.kind === "punct" && t.text === "$") return { kind: "variable", name: name() };
    if (t.kind === "string") return { kind: "literal", value: t.text };
    if (t.kind === "number") return { kind: "literal", value: Number(t.text) };
    if (t.kind === "name") {
      if (t.text === "true" || t.text === "false") return { kind: "literal", value: t.text === "true" };
      if (t.text === "null") return { kind: "literal", value: null };
      return { kind: "literal", value: t.text }; // an enum value
    }
    if (t.text === "[") {
      const items: GqlValue[] = [];
      while (!isPunct("]")) items.push(parseValue());
      next();
      return { kind: "list", items };
    }
    if (t.text === "{") {
      const fields: Record<string, GqlValue> = {};
      while (!isPunct("}")) {
        const key = name();
        expect(":");
        fields[key] = parseValue();
      }
      next();
      return { kind: "object", fields };
    }
    throw new GqlSyntaxError(`Unexpected '${t.text}' in a value`);
  };

  const parseSelections = (): GqlField[] => {
    expect("{");
    const fields: GqlField[] = [];
    while (!isPunct("}")) {
      if (isPunct("...")) throw new GqlSyntaxError("Fragments are not supported by the fake WandB");
      let fieldName = name();
      let alias: string | undefined;
      if (isPunct(":")) {
        next();
        alias = fieldName;
        fieldName = name();
      }
      const args: Record<string, GqlValue> = {};
      if (isPunct("(")) {
        next();
        while (!isPunct(")")) {
          const arg = name();
          expect(":");
          args[arg] = parseValue();
        }
        next();
      }
      const field: GqlField = { name: fieldName, args };
      if (alias !== undefined) field.alias = alias;
      if (isPunct("{")) field.selections = parseSelections();
      fields.push(field);
    }
    next();
    if (fields.length === 0) throw new GqlSyntaxError("Empty selection set");
    return fields;
  };

  let operationName: string | null = null;
  const variables: GqlVariableDefinition[] = [];
  if (peek()?.kind === "name") {
    const keyword = name();
    if (keyword !== "query") throw new GqlSyntaxError(`Only queries are supported, not '${keyword}'`);
    if (peek()?.kind === "name") operationName = name();
    if (isPunct("(")) {
      next();
      while (!isPunct(")")) {
        expect("$");
        const varName = name();
        expect(":");
        const def: GqlVariableDefinition = { name: varName, type: parseType() };
        if (isPunct("=")) {
          next();
          def.defaultValue = parseValue();
        }
        variables.push(def);
      }
      next();
    }
  }
  const selections = parseSelections();
  if (pos !== tokens.length) throw new GqlSyntaxError("Only one operation per document is supported");
  return { operationName, variables, selections };
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const re =
    /\s+|,|#[^\n]*|(\.\.\.)|([{}()[\]:$!=@])|("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([_A-Za-z][_0-9A-Za-z]*)/y;
  while (re.lastIndex < source.length) {
    const at = re.lastIndex;
    const m = re.exec(source);
    if (!m) throw new GqlSyntaxError(`Unexpected character '${source[at] ?? ""}' at ${at}`);
    if (m[1] !== undefined || m[2] !== undefined) tokens.push({ kind: "punct", text: m[0] });
    else if (m[3] !== undefined) tokens.push({ kind: "string", text: JSON.parse(m[3]) as string });
    else if (m[4] !== undefined) tokens.push({ kind: "number", text: m[4] });
    else if (m[5] !== undefined) tokens.push({ kind: "name", text: m[5] });
  }
  return tokens;
}

/** Resolve an argument value against the request's variables (and the operation's defaults). */
export function resolveValue(value: GqlValue, variables: Record<string, unknown>): unknown {
  switch (value.kind) {
    case "variable":
      return variables[value.name] ?? null;
    case "literal":
      return value.value;
    case "list":
      return value.items.map((item) => resolveValue(item, variables));
    case "object":
      return Object.fromEntries(Object.entries(value.fields).map(([k, v]) => [k, resolveValue(v, variables)]));
  }
}
