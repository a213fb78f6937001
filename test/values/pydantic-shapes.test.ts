// Values as pydantic reads them: collections of enum/literal items checked per item, dicts, and Field length and value bounds.
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import { createEnvironmentScanner } from "../../src/environments/scanner.ts";
import type { ConfigField, EnvironmentInfo } from "../../src/environments/types.ts";
import type { Services } from "../../src/services.ts";
import { parseFieldValue } from "../../src/values/parse-field-value.ts";
import { testServices } from "../helpers/test-services.ts";

const FOLDER = fileURLToPath(new URL("../fixtures/atropos-shapes/", import.meta.url));
let formats: EnvironmentInfo;
beforeAll(async () => {
  const result = await createEnvironmentScanner({ lockedEnv: {}, recursive: false }).scan(FOLDER);
  formats = result.environments.find((e) => e.className === "FormatsEnv")!;
});

const f = (name: string): ConfigField => {
  const found = formats.fields.find((x) => x.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
};
const set = (name: string, raw: unknown) => parseFieldValue(raw, f(name));

describe("lists, sets and tuples of enum and literal items", () => {
  it("accept the members' values, as pydantic does, in text or JSON", () => {
    expect(set("supported_formats", "json, yaml")).toEqual(["json", "yaml"]);
    expect(set("supported_formats", '["xml"]')).toEqual(["xml"]);
    expect(set("supported_formats", "none")).toBeNull();
    expect(set("styles", "terse,verbose,terse")).toEqual(["terse", "verbose"]);
    expect(set("levels", "2, 1")).toEqual([2, 1]);
    expect(set("frozen_formats", ["json"])).toEqual(["json"]);
    expect(set("pair", '[3, "b"]')).toEqual([3, "b"]);
  });

  it("refuse an item that is not a member, naming the item and the allowed values", () => {
    expect(() => set("supported_formats", "json,bogus_format")).toThrow(
      'supported_formats expects a list of one of "json", "xml", "yaml" (comma-separated or a JSON array), or none (Optional[List[Format]]); item 2, "bogus_format", is not one of "json", "xml", "yaml".',
    );
    expect(() => set("styles", "chatty")).toThrow(/item 1, "chatty", is not one of "terse", "verbose"/);
    expect(() => set("levels", "1,3")).toThrow(/item 2, "3", is not one of 1, 2/);
    expect(() => set("frozen_formats", "JSON")).toThrow(/item 1, "JSON", is not one of "json", "xml", "yaml"/);
  });

  it("a fixed tuple needs one item of each type, in order", () => {
    expect(() => set("pair", "1")).toThrow(/pair expects exactly 2 items: a whole number; text/);
    expect(() => set("pair", "x, y")).toThrow(/item 1, "x", is not a whole number/);
  });
});

describe("dicts", () => {
  it("check each key and value against Dict[K, V]", () => {
    expect(set("weights", '{"gsm8k": 0.5, "math": 2}')).toEqual({ gsm8k: 0.5, math: 2 });
    expect(() => set("weights", '{"gsm8k": "heavy"}')).toThrow(/the value of "gsm8k", "heavy", is not a number/);
    expect(set("format_weights", { json: 2 })).toEqual({ json: 2 });
    expect(() => set("format_weights", '{"csv": 1}')).toThrow(/key "csv", "csv", is not one of "json", "xml", "yaml"/);
    expect(() => set("format_weights", "[1]")).toThrow(
      /format_weights expects a JSON object whose keys are one of "json", "xml", "yaml" and values a whole number/,
    );
  });
});

describe("Field bounds", () => {
  it("enforce gt/le on numbers", () => {
    expect(() => set("temperature", "0")).toThrow("temperature must be more than 0; got 0.");
    expect(() => set("temperature", "2.5")).toThrow("temperature must be at most 2; got 2.5.");
    expect(set("temperature", "2")).toBe(2);
  });

  it("enforce min_length/max_length on text and lists", () => {
    expect(() => set("prefix", '""')).toThrow("prefix must have 1 to 8 characters; this value has 0.");
    expect(() => set("prefix", "Question:")).toThrow("prefix must have 1 to 8 characters; this value has 9.");
    expect(set("prefix", "Qé:")).toBe("Qé:");
    expect(() => set("seeds", "1,2,3,4")).toThrow("seeds must have at most 3 items; this value has 4.");
    expect(set("seeds", "1,2,3")).toEqual([1, 2, 3]);
  });
});

describe("/rl set", () => {
  const opened: Services[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });

  it("refuses a bogus list item and stores nothing; /rl config shows the allowed values and bounds", async () => {
    const s = testServices({ RL_DEFAULT_ROLE: "operate", RL_TRAINING_ROOT: FOLDER, RL_ENVIRONMENTS_DIR: "." });
    opened.push(s);
    const ctx = {
      channel: { platform: "slack", workspace: "T1", channel: "C1" },
      user: { id: "U1" },
      via: "slash" as const,
      services: s,
    };
    expect((await dispatch({ text: "/rl select formats" }, ctx)).ok).toBe(true);
    const refused = await dispatch({ text: "/rl set supported_formats bogus_format" }, ctx);
    expect(refused.reply.error?.code).toBe("INVALID_VALUE");
    expect(refused.reply.text).toContain('item 1, "bogus_format", is not one of "json", "xml", "yaml"');
    expect((await dispatch({ text: "/rl set supported_formats json,xml" }, ctx)).ok).toBe(true);
    const shown = await dispatch({ text: "/rl config supported_formats" }, ctx);
    expect(shown.reply.fields?.find((x) => x.label === "Allowed values")?.value).toBe("json, xml, yaml");
    const prefix = await dispatch({ text: "/rl config prefix" }, ctx);
    expect(prefix.reply.fields?.find((x) => x.label === "Bounds")?.value).toBe("length ≥ 1 and length ≤ 8");
  });
});
