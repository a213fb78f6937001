import { describe, expect, it } from "vitest";
import type { ConfigField, FieldType } from "../../src/environments/types.ts";
import { parseFieldValue } from "../../src/values/parse-field-value.ts";
import { nearestName } from "../../src/environments/resolution/nearest-name.ts";

const field = (fieldType: FieldType, extra: Partial<ConfigField> = {}): ConfigField => ({
  name: "f",
  type: "T",
  fieldType,
  default: undefined,
  description: "",
  locked: false,
  ...extra,
});

describe("parseFieldValue", () => {
  it.each([
    [{ kind: "int" }, "8", 8],
    [{ kind: "int" }, "-3", -3],
    [{ kind: "int" }, "1_000", 1000],
    [{ kind: "float" }, "0.25", 0.25],
    [{ kind: "float" }, "3", 3],
    [{ kind: "float" }, "1e-4", 0.0001],
    [{ kind: "bool" }, "True", true],
    [{ kind: "bool" }, "off", false],
    [{ kind: "str" }, "hello world", "hello world"],
    [{ kind: "str" }, '"quoted"', "quoted"],
    [{ kind: "optional", inner: { kind: "int" } }, "none", null],
    [{ kind: "optional", inner: { kind: "int" } }, "5", 5],
    [{ kind: "list", item: { kind: "str" } }, "a, b,c", ["a", "b", "c"]],
    [{ kind: "list", item: { kind: "int" } }, "[1, 2, 3]", [1, 2, 3]],
    [{ kind: "enum", values: ["easy", "hard"] }, "hard", "hard"],
    [{ kind: "dict" }, '{"a": 1}', { a: 1 }],
    [{ kind: "any" }, "[1]", [1]],
  ] as Array<[FieldType, string, unknown]>)("parses %j from %s", (type, text, expected) => {
    expect(parseFieldValue(text, field(type))).toEqual(expected);
  });

  it.each([
    [{ kind: "int" }, "8.5"],
    [{ kind: "int" }, "eight"],
    [{ kind: "int" }, "99999999999999999999"],
    [{ kind: "float" }, "NaN"],
    [{ kind: "float" }, "1/2"],
    [{ kind: "bool" }, "maybe"],
    [{ kind: "enum", values: ["easy", "hard"] }, "medium"],
    [{ kind: "list", item: { kind: "int" } }, "1, two"],
    [{ kind: "dict" }, "[1]"],
  ] as Array<[FieldType, string]>)("refuses %j from %s with the expected type", (type, text) => {
    expect(() => parseFieldValue(text, field(type, { name: "group_size", type: "int" }))).toThrow(/group_size expects/);
  });

  it("accepts JSON values from the LLM as they are, and checks them", () => {
    expect(parseFieldValue(8, field({ kind: "int" }))).toBe(8);
    expect(() => parseFieldValue(8.5, field({ kind: "int" }))).toThrow();
    expect(parseFieldValue(["x"], field({ kind: "list", item: { kind: "str" } }))).toEqual(["x"]);
  });

  it("enforces bounds and the length limit", () => {
    const bounded = field({ kind: "int" }, { name: "n", min: 1, max: 10 });
    expect(() => parseFieldValue("0", bounded)).toThrow(/at least 1/);
    expect(() => parseFieldValue("11", bounded)).toThrow(/at most 10/);
    expect(parseFieldValue("10", bounded)).toBe(10);
    const open = field({ kind: "float" }, { name: "lr", min: 0, minExclusive: true });
    expect(() => parseFieldValue("0", open)).toThrow(/more than 0/);
    expect(parseFieldValue("0.1", open)).toBe(0.1);
    expect(() => parseFieldValue("x".repeat(5000), field({ kind: "str" }))).toThrow(/limit/);
  });
});

describe("nearestName", () => {
  it("suggests close names and nothing for unrelated words", () => {
    expect(nearestName("grup_size", ["group_size", "total_steps"])).toBe("group_size");
    expect(nearestName("steps", ["group_size", "total_steps"])).toBe("total_steps");
    expect(nearestName("banana", ["group_size", "total_steps"])).toBeUndefined();
  });
});

describe("-0.0 is never rewritten silently", () => {
  it("a float's -0.0 (which pydantic keeps) is refused with the reason; an int's -0 is 0, as pydantic reads it", async () => {
    const { execFileSync } = await import("node:child_process");
    const read = execFileSync("python3", [
      "-c",
      "from pydantic import BaseModel\nclass M(BaseModel):\n  x: float\n  y: int\nm = M(x='-0.0', y='-0'); print(repr(m.x), m.y)",
    ]).toString();
    expect(read.trim()).toBe("-0.0 0");
    expect(() => parseFieldValue("-0.0", field({ kind: "float" }))).toThrow(
      /-0.0 cannot be kept.*pydantic would keep -0.0/,
    );
    expect(Object.is(parseFieldValue("-0", field({ kind: "int" })), 0)).toBe(true);
    expect(parseFieldValue("0.0", field({ kind: "float" }))).toBe(0);
  });
});
