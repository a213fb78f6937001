// What the model reads of a tool's result: valid JSON with every item when long texts are what makes it too long;
// secrets redacted before any cut.
import { describe, expect, it } from "vitest";
import { toolResultContent } from "../../adapters/chat/tool-result-content.ts";
import { createRedactor } from "../../src/redact.ts";

const SECRET = "sk-live-0123456789abcdefghijklmnopqrstuvwxyz";
const redact = createRedactor([SECRET]);

/** A configuration view the size of a real one: 45 fields with long descriptions. */
function configView(fields = 45) {
  return {
    environment: "parity",
    configurable_fields: Array.from({ length: fields }, (_, i) => ({
      name: `field_${i}`,
      type: "int",
      default: i,
      description: `What field ${i} does, at some length, as pydantic descriptions often are: `.repeat(4),
      locked: i % 2 === 0,
      current_value: i * 2,
    })),
  };
}

describe("toolResultContent", () => {
  it("leaves a result that fits as its JSON", () => {
    expect(toolResultContent({ a: 1, b: "two" }, redact, 100)).toBe('{"a":1,"b":"two"}');
    // A float JSON has no number for is written as pydantic reads it, not as JSON.stringify's null.
    expect(toolResultContent({ hi: Infinity, lo: -Infinity, odd: NaN }, redact, 100)).toBe(
      '{"hi":"inf","lo":"-inf","odd":"nan"}',
    );
  });

  it("cuts long texts short before the JSON itself, so every field and value is still there", () => {
    const view = configView();
    expect(JSON.stringify(view).length).toBeGreaterThan(8_000);
    const content = toolResultContent(view, redact, 8_000);
    expect(content.length).toBeLessThanOrEqual(8_000);
    const read = JSON.parse(content) as { shortened: string; result: ReturnType<typeof configView> };
    expect(read.shortened).toMatch(/^Descriptions longer than \d+ characters are cut short/);
    expect(read.result.configurable_fields.map((field) => [field.name, field.current_value, field.locked])).toEqual(
      view.configurable_fields.map((field) => [field.name, field.current_value, field.locked]),
    );
    const description = read.result.configurable_fields[0]!.description;
    expect(description.endsWith("…")).toBe(true);
    expect(view.configurable_fields[0]!.description.startsWith(description.slice(0, -1))).toBe(true);
  });

  it("keeps every field and value of a 110-field config, writing it as columns and rows without descriptions", () => {
    const view = {
      ...configView(110),
      locked_fields: configView(30).configurable_fields.map((f) => ({ ...f, name: `locked_${f.name}` })),
    };
    const content = toolResultContent(view, redact, 8_000);
    expect(content.length).toBeLessThanOrEqual(8_000);
    expect(content).not.toContain("[truncated");
    const read = JSON.parse(content) as {
      shortened: string;
      result: { environment: string; configurable_fields: { columns: string[]; rows: unknown[][] } };
    };
    expect(read.shortened).toContain("columns and rows");
    expect(read.result.environment).toBe("parity");
    const { columns, rows } = read.result.configurable_fields;
    const pick = (row: unknown[], key: string): unknown => row[columns.indexOf(key)];
    expect(
      rows.map((row) => [pick(row, "name"), pick(row, "default"), pick(row, "current_value"), pick(row, "locked")]),
    ).toEqual(view.configurable_fields.map((f) => [f.name, f.default, f.current_value, f.locked]));
  });

  it("redacts a secret before a text is cut, so no start of it is left", () => {
    const view = configView();
    view.configurable_fields[3]!.description = `${"x".repeat(20)}${SECRET} and more words after it`.repeat(3);
    const content = toolResultContent(view, redact, 8_000);
    expect(content).not.toContain(SECRET.slice(0, 12));
    expect(content).toContain("[redacted]");
  });

  it("cuts the JSON, saying how long it was, when shortening the texts is not enough", () => {
    const content = toolResultContent(configView(2_000), redact, 8_000);
    expect(content.length).toBeLessThanOrEqual(8_000);
    expect(content).toMatch(/… \[truncated: \d+ characters in all; ask for less/);
  });
});
