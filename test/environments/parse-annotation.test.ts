// parseAnnotation: Python annotations as written in config classes -> FieldType.
import { describe, expect, it } from "vitest";
import { parseAnnotation } from "../../src/environments/python/parse-annotation.ts";

describe("parseAnnotation", () => {
  it("reads the scalar types, with or without a module prefix", () => {
    expect(parseAnnotation("int")).toEqual({ kind: "int" });
    expect(parseAnnotation("float")).toEqual({ kind: "float" });
    expect(parseAnnotation("bool")).toEqual({ kind: "bool" });
    expect(parseAnnotation("str")).toEqual({ kind: "str" });
    expect(parseAnnotation("pydantic.PositiveInt")).toEqual({ kind: "int" });
  });

  it("reads every spelling of an optional value", () => {
    const optionalInt = { kind: "optional", inner: { kind: "int" } };
    expect(parseAnnotation("Optional[int]")).toEqual(optionalInt);
    expect(parseAnnotation("typing.Optional[int]")).toEqual(optionalInt);
    expect(parseAnnotation("int | None")).toEqual(optionalInt);
    expect(parseAnnotation("None | int")).toEqual(optionalInt);
    expect(parseAnnotation("Union[int, None]")).toEqual(optionalInt);
    expect(parseAnnotation("Optional[Optional[int]]")).toEqual(optionalInt);
  });

  it("gives up on unions of several real types, keeping only that None is allowed", () => {
    expect(parseAnnotation("Union[int, str]")).toEqual({ kind: "any" });
    expect(parseAnnotation("int | str | None")).toEqual({ kind: "optional", inner: { kind: "any" } });
  });

  it("reads lists with their item type, and dicts", () => {
    expect(parseAnnotation("List[str]")).toEqual({ kind: "list", item: { kind: "str" } });
    expect(parseAnnotation("list[float]")).toEqual({ kind: "list", item: { kind: "float" } });
    expect(parseAnnotation("List")).toEqual({ kind: "list", item: { kind: "any" } });
    expect(parseAnnotation("Optional[List[int]]")).toEqual({
      kind: "optional",
      inner: { kind: "list", item: { kind: "int" } },
    });
    expect(parseAnnotation("Dict[str, Any]")).toEqual({ kind: "dict", key: { kind: "str" }, value: { kind: "any" } });
    expect(parseAnnotation("Dict")).toEqual({ kind: "dict" });
    expect(parseAnnotation("dict")).toEqual({ kind: "dict" });
  });

  it("reads sets as unique lists, Tuple[X, ...] as a list and Tuple[A, B] as a fixed tuple", () => {
    expect(parseAnnotation("Set[str]")).toEqual({ kind: "list", item: { kind: "str" }, unique: true });
    expect(parseAnnotation("typing.FrozenSet[int]")).toEqual({ kind: "list", item: { kind: "int" }, unique: true });
    expect(parseAnnotation("Tuple[int, ...]")).toEqual({ kind: "list", item: { kind: "int" } });
    expect(parseAnnotation("tuple[int, str]")).toEqual({ kind: "tuple", items: [{ kind: "int" }, { kind: "str" }] });
    expect(parseAnnotation("Tuple[..., int]")).toEqual({ kind: "any" });
  });

  it("reads Literal values of any quoting, numbers and booleans", () => {
    expect(parseAnnotation(`Literal["a", 'b']`)).toEqual({ kind: "enum", values: ["a", "b"] });
    expect(parseAnnotation("Literal[1, -2, 3.5]")).toEqual({ kind: "enum", values: [1, -2, 3.5] });
    expect(parseAnnotation("Literal[True, False]")).toEqual({ kind: "enum", values: [true, false] });
    expect(parseAnnotation(`Literal["x", None]`)).toEqual({ kind: "optional", inner: { kind: "enum", values: ["x"] } });
    expect(parseAnnotation(`Optional[Literal["easy", "hard"]]`)).toEqual({
      kind: "optional",
      inner: { kind: "enum", values: ["easy", "hard"] },
    });
  });

  it("copes with line breaks and comments inside brackets", () => {
    expect(parseAnnotation(`Literal[\n  "a",  # first\n  "b",\n]`)).toEqual({ kind: "enum", values: ["a", "b"] });
  });

  it("unwraps Annotated and string forward references", () => {
    expect(parseAnnotation("Annotated[int, Field(ge=1)]")).toEqual({ kind: "int" });
    expect(parseAnnotation(`"Optional[int]"`)).toEqual({ kind: "optional", inner: { kind: "int" } });
    expect(parseAnnotation(`List["'int'"]`)).toEqual({ kind: "list", item: { kind: "int" } });
  });

  it("asks the resolver about other names and uses the Enum values it gives", () => {
    const resolver = (name: string) => (name === "Mode" ? ["fast", "careful"] : undefined);
    expect(parseAnnotation("Mode", resolver)).toEqual({ kind: "enum", values: ["fast", "careful"] });
    expect(parseAnnotation("Optional[Mode]", resolver)).toEqual({
      kind: "optional",
      inner: { kind: "enum", values: ["fast", "careful"] },
    });
    expect(parseAnnotation("Other", resolver)).toEqual({ kind: "any" });
  });

  it("returns any for what it cannot read, never throwing", () => {
    for (const text of ["", "Callable[[int], str]", "List[", "int]", "x + y", "b'x'", '"'.repeat(3)]) {
      expect(parseAnnotation(text)).toEqual({ kind: "any" });
    }
    const hostile = `${"List[".repeat(100_000)}int${"]".repeat(100_000)}`;
    expect(parseAnnotation(hostile)).toEqual({ kind: "any" });
  });
});
