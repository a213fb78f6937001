// The output-file reader: scored groups in, malformed and hostile lines counted and skipped, the threshold applied.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseProcessOutput, readProcessOutput } from "../../src/inference/parse-process-output.ts";
import { tempDir } from "../helpers/test-services.ts";

const group = (scores: unknown) => JSON.stringify({ tokens: [[1]], masks: [[1]], scores, messages: null });

describe("parseProcessOutput", () => {
  it("counts completions at or above the threshold as correct, per step", () => {
    const out = parseProcessOutput([group([1, 0, 1, 1]), group([0, 0, 0, 0]), group([-1, 1])], 0.5);
    expect(out.steps).toEqual([
      { step: 1, completions: 4, correct: 3, scores: [1, 0, 1, 1] },
      { step: 2, completions: 4, correct: 0, scores: [0, 0, 0, 0] },
      { step: 3, completions: 2, correct: 1, scores: [-1, 1] },
    ]);
    expect(out.malformedLines).toBe(0);
  });

  it("does not count the seed's score > 0 as correct for partial credit under the default threshold", () => {
    expect(parseProcessOutput([group([0.2, 0.49, 0.5, 0.9])], 0.5).steps[0]?.correct).toBe(2);
    expect(parseProcessOutput([group([0.2, 0.49, 0.5, 0.9])], 1).steps[0]?.correct).toBe(0);
  });

  it("skips lines that are not scored groups and counts them", () => {
    const lines = [
      "",
      "not json at all",
      "[1, 2, 3]",
      "null",
      JSON.stringify({ tokens: [] }),
      group("1,1,1"),
      group([1, "1", 1]),
      group([1, null]),
      '{"scores": [1, 1], "tokens": [[1]',
      group([1, 1]),
      "   ",
    ];
    const out = parseProcessOutput(lines, 0.5);
    expect(out.steps).toHaveLength(1);
    expect(out.steps[0]).toMatchObject({ step: 1, completions: 2, correct: 2 });
    expect(out.malformedLines).toBe(8);
  });

  it("reads a file with CRLF line ends and a missing final newline", async () => {
    const file = path.join(tempDir("rl-parse-"), "out.jsonl");
    writeFileSync(file, `${group([1, 0])}\r\n${group([0, 0])}`);
    const out = await readProcessOutput(file, 0.5);
    expect(out.steps.map((s) => s.correct)).toEqual([1, 0]);
  });
});
