// One test per bound kind (ge, gt, le, lt): the bound itself and its neighbours are accepted or refused as pydantic does.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { applyFieldBounds } from "../../src/environments/resolution/apply-field-bounds.ts";
import type { FieldDecl } from "../../src/environments/python/python-file-summary.ts";
import type { ConfigField } from "../../src/environments/types.ts";
import { parseFieldValue } from "../../src/values/parse-field-value.ts";

type Kind = "ge" | "gt" | "le" | "lt";
const BOUND = 2;
const VALUES = ["1.5", "1.999", "2", "2.0", "2.001", "2.5"];

/** What pydantic 2 says of each value for `x: float = Field(KIND=2)`: true when it accepts it. */
function pydanticAccepts(kind: Kind): boolean[] {
  const program = [
    "import json, sys",
    "from pydantic import BaseModel, Field, ValidationError",
    `class C(BaseModel):\n    x: float = Field(${kind}=${BOUND})`,
    "out = []",
    "for v in json.loads(sys.argv[1]):",
    "    try:\n        C(x=v); out.append(True)\n    except ValidationError:\n        out.append(False)",
    "print(json.dumps(out))",
  ].join("\n");
  return JSON.parse(
    execFileSync("python3", ["-c", program, JSON.stringify(VALUES)], { encoding: "utf8" }),
  ) as boolean[];
}

function botAccepts(kind: Kind): boolean[] {
  const field: ConfigField = {
    name: "x",
    type: "float",
    fieldType: { kind: "float" },
    default: undefined,
    description: "",
    locked: false,
  };
  applyFieldBounds(field, { [kind]: BOUND } as Partial<FieldDecl> as FieldDecl);
  return VALUES.map((raw) => {
    try {
      parseFieldValue(raw, field);
      return true;
    } catch {
      return false;
    }
  });
}

// Written out, so the test still says what is meant on a machine without pydantic.
const EXPECTED: Record<Kind, boolean[]> = {
  ge: [false, false, true, true, true, true],
  gt: [false, false, false, false, true, true],
  le: [true, true, true, true, false, false],
  lt: [true, true, false, false, false, false],
};

describe("bounds from Field(...)", () => {
  let hasPydantic = true;
  try {
    execFileSync("python3", ["-c", "import pydantic"], { stdio: "ignore" });
  } catch {
    hasPydantic = false;
  }

  it.each(["ge", "gt", "le", "lt"] as const)("%s: the bound itself and its neighbours", (kind) => {
    expect(botAccepts(kind)).toEqual(EXPECTED[kind]);
    // pydantic is installed here (the machine's python3); without it the written-out table above is the reference.
    if (hasPydantic) expect(pydanticAccepts(kind)).toEqual(EXPECTED[kind]);
  });
});
