import { describe, expect, it } from "vitest";
import { renderText, sparkline } from "../adapters/render-text.ts";

describe("sparkline", () => {
  it("draws rising values low to high and skips non-numbers", () => {
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7])).toBe("▁▂▃▄▅▆▇█");
    expect(sparkline([1, Number.NaN, 1])).toBe("▁▁");
    expect(sparkline([])).toBe("");
  });

  it("squeezes a long history into the width without failing", () => {
    const line = sparkline(
      Array.from({ length: 200_000 }, (_, i) => i),
      40,
    );
    expect(line).toHaveLength(40);
    expect(line.startsWith("▁")).toBe(true);
    expect(line.endsWith("█")).toBe(true);
  });
});

describe("renderText", () => {
  it("renders every part of a reply, marking errors", () => {
    const text = renderText({
      title: "T",
      text: "body",
      fields: [{ label: "Step", value: "3 / 10" }],
      blocks: [{ kind: "code", title: "log", content: "a\nb" }],
      links: [{ label: "WandB", url: "http://127.0.0.1/x" }],
      buttons: [{ kind: "command", label: "Stop", command: "/rl stop x" }],
      chart: {
        title: "Reward",
        points: [
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ],
      },
    });
    expect(text.split("\n")).toEqual([
      "■ T",
      "body",
      "  Step: 3 / 10",
      "log:",
      "  a",
      "  b",
      "Reward: ▁█",
      "WandB: http://127.0.0.1/x",
      "[Stop: /rl stop x]",
    ]);
    expect(renderText({ title: "Nope", error: { code: "X", message: "m" } })).toBe("✗ Nope");
  });
});
