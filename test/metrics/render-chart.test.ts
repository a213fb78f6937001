// The chart renderer: a real PNG of the right size, degenerate input drawn or declined safely, long series downsampled.
import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { CHART_SIZE, renderChartPng } from "../../src/metrics/render-chart.ts";
import { downsamplePoints, prepareChartPoints, type ChartPoint } from "../../src/metrics/render-chart-points.ts";
import { drawChartSvg, escapeSvgText } from "../../src/metrics/render-chart-svg.ts";
import { extent, formatTick, niceTicks, paddedRange } from "../../src/metrics/render-chart-ticks.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from the IHDR chunk, which the PNG format puts first, right after the signature. */
function ihdr(png: Buffer): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(png.toString("latin1", 12, 16)).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** How many pixels are the line's colour (#5865f2, give or take anti-aliasing), in the SVG as resvg draws it. */
function linePixels(svg: string): number {
  const { pixels } = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
  let n = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (
      Math.abs((pixels[i] ?? 0) - 0x58) < 12 &&
      Math.abs((pixels[i + 1] ?? 0) - 0x65) < 12 &&
      Math.abs((pixels[i + 2] ?? 0) - 0xf2) < 12
    )
      n++;
  }
  return n;
}

const curve = (n: number): ChartPoint[] => Array.from({ length: n }, (_, i) => ({ x: i, y: Math.sin(i / 10) }));
const size = { width: 600, height: 300 };

describe("renderChartPng", () => {
  it("returns a PNG of 600x300 by default, and of the size asked for", async () => {
    const png = await renderChartPng({ title: "Reward mean by step", points: curve(50) });
    expect(ihdr(png!)).toEqual(CHART_SIZE);
    expect(ihdr((await renderChartPng({ title: "r", points: curve(50) }, { width: 800, height: 400 }))!)).toEqual({
      width: 800,
      height: 400,
    });
    // Nonsense sizes are clamped rather than handed to the rasteriser.
    expect(ihdr((await renderChartPng({ title: "r", points: curve(5) }, { width: 0, height: Number.NaN }))!)).toEqual({
      width: 200,
      height: 300,
    });
  });

  it("declines (undefined) when no point has a finite x and y", async () => {
    expect(await renderChartPng({ title: "empty", points: [] })).toBeUndefined();
    expect(
      await renderChartPng({
        title: "nan",
        points: [
          { x: Number.NaN, y: 1 },
          { x: 1, y: Number.POSITIVE_INFINITY },
        ],
      }),
    ).toBeUndefined();
  });

  it("draws one point, equal values, NaN gaps and extreme magnitudes", async () => {
    const cases: ChartPoint[][] = [
      [{ x: 5, y: 0.5 }],
      [
        { x: 0, y: 1 },
        { x: 10, y: 1 },
        { x: 20, y: 1 },
      ],
      [
        { x: 0, y: 0.1 },
        { x: 1, y: Number.NaN },
        { x: 2, y: 0.3 },
        { x: Number.NaN, y: 9 },
      ],
      [
        { x: 0, y: -Number.MAX_VALUE },
        { x: 1, y: Number.MAX_VALUE },
      ],
      [
        { x: 3, y: 1e-300 },
        { x: 3, y: 2e-300 },
      ],
      [
        { x: 1e15, y: -5 },
        { x: 1e15 + 2, y: 5 },
      ],
    ];
    for (const points of cases) {
      expect(ihdr((await renderChartPng({ title: "degenerate", points }))!)).toEqual(CHART_SIZE);
    }
  });

  it("survives a hostile title: markup, control characters, a lone surrogate, thousands of characters", async () => {
    const title = `</text><script>alert(1)</script> & "q" \u0000\u0007\ud800 ${"x".repeat(5000)}`;
    expect(ihdr((await renderChartPng({ title, points: curve(10) }))!)).toEqual(CHART_SIZE);
  });

  it("renders 50,000 points without the path growing past the downsample limit", async () => {
    const points = curve(50_000);
    expect(ihdr((await renderChartPng({ title: "long", points }))!)).toEqual(CHART_SIZE);
    const line =
      /<path d="(M[^"]*)"[^>]*stroke="#5865f2"/.exec(
        drawChartSvg("long", prepareChartPoints(points, 1200), size),
      )?.[1] ?? "";
    // One M and at most 1,199 L: never more vertices than the limit.
    expect((line.match(/L/g) ?? []).length).toBeLessThan(1200);
    expect((line.match(/L/g) ?? []).length).toBeGreaterThan(1000);
  });
});

describe("drawChartSvg", () => {
  it("draws the line for a series, a dot for a single point, and says so when there is nothing", () => {
    expect(linePixels(drawChartSvg("r", curve(30), size))).toBeGreaterThan(500);
    const dot = linePixels(drawChartSvg("r", [{ x: 1, y: 1 }], size));
    expect(dot).toBeGreaterThan(10);
    expect(dot).toBeLessThan(100);
    const empty = drawChartSvg("r", [], size);
    expect(linePixels(empty)).toBe(0);
    expect(empty).toContain("no data yet");
  });

  it("puts the escaped title, tick labels and the last value in the document", () => {
    const svg = drawChartSvg(
      "Reward <mean> & co",
      [
        { x: 0, y: 0 },
        { x: 100, y: 0.5 },
      ],
      size,
    );
    expect(svg).toContain("Reward &lt;mean&gt; &amp; co");
    expect(svg).toContain(">last 0.5<");
    expect(svg).toContain(">100<");
    expect(svg).toContain(">0.4<");
    expect(svg).not.toMatch(/NaN|Infinity/);
  });

  it("never writes NaN or Infinity into coordinates, whatever the values", () => {
    for (const points of [
      [
        { x: 0, y: -Number.MAX_VALUE },
        { x: 1, y: Number.MAX_VALUE },
      ],
      [{ x: 7, y: 7 }],
      [
        { x: -1e308, y: 0 },
        { x: 1e308, y: 1 },
      ],
    ]) {
      expect(drawChartSvg("t", points, size)).not.toMatch(/NaN|Infinity/);
    }
  });
});

describe("points", () => {
  it("drops non-finite points and sorts by step", () => {
    expect(
      prepareChartPoints(
        [
          { x: 3, y: 1 },
          { x: 1, y: Number.NaN },
          { x: 2, y: 2 },
          { x: Number.NEGATIVE_INFINITY, y: 0 },
          { x: 0, y: 5 },
        ],
        100,
      ),
    ).toEqual([
      { x: 0, y: 5 },
      { x: 2, y: 2 },
      { x: 3, y: 1 },
    ]);
  });

  it("downsamples to the limit, keeping the ends, the extremes and the step order", () => {
    const points = curve(10_000).map((p, i) => (i === 4321 ? { x: p.x, y: 50 } : i === 8765 ? { x: p.x, y: -50 } : p));
    const out = downsamplePoints(points, 500);
    expect(out.length).toBeLessThanOrEqual(500);
    expect(out.length).toBeGreaterThan(400);
    expect(out[0]).toEqual(points[0]);
    expect(out.at(-1)).toEqual(points.at(-1));
    expect(extent(out.map((p) => p.y))).toEqual([-50, 50]);
    expect(out.every((p, i) => i === 0 || p.x > (out[i - 1]?.x ?? -Infinity))).toBe(true);
  });

  it("leaves a short series alone", () => {
    expect(downsamplePoints(curve(10), 500)).toEqual(curve(10));
  });
});

describe("ticks", () => {
  it("picks round steps and labels them with the decimals they need", () => {
    const ticks = niceTicks(0, 1, 5);
    expect(ticks.values).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(ticks.values.map((v) => formatTick(v, ticks.step))).toEqual(["0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
    expect(niceTicks(0, 3, 5, true).values).toEqual([0, 1, 2, 3]);
    expect(formatTick(12_000, 2000)).toBe("12k");
    expect(formatTick(1_500_000, 500_000)).toBe("1.5M");
    expect(formatTick(2e20, 1e20)).toBe("2e+20");
  });

  it("gives a lone value a range around it, and clamps ranges at the largest double", () => {
    expect(paddedRange(5, 5, 0)).toEqual([4.5, 5.5]);
    expect(paddedRange(5, 5, 0, 1)).toEqual([4, 6]);
    expect(paddedRange(0, 0, 0.1)).toEqual([-1, 1]);
    expect(paddedRange(-Number.MAX_VALUE, Number.MAX_VALUE, 0.1)).toEqual([-Number.MAX_VALUE, Number.MAX_VALUE]);
  });

  it("finds the extent of more values than Math.min(...values) can take", () => {
    expect(extent(Array.from({ length: 300_000 }, (_, i) => i))).toEqual([0, 299_999]);
  });
});

describe("escapeSvgText", () => {
  it("escapes markup and removes what XML cannot carry", () => {
    expect(escapeSvgText(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;");
    expect(escapeSvgText("a\u0000b\u001fc\ud800d\nline")).toBe("abc\ufffdd line");
    expect(escapeSvgText("emoji 🎯 stays")).toBe("emoji 🎯 stays");
  });
});

/** Pixels of one colour (give or take anti-aliasing) in the SVG as resvg draws it. */
function colourPixels(svg: string, hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const { pixels } = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
  let n = 0;
  for (let i = 0; i < pixels.length; i += 4)
    if (
      Math.abs((pixels[i] ?? 0) - r!) < 12 &&
      Math.abs((pixels[i + 1] ?? 0) - g!) < 12 &&
      Math.abs((pixels[i + 2] ?? 0) - b!) < 12
    )
      n++;
  return n;
}

describe("charts of several series", () => {
  it("draws each series as its own coloured line on shared axes, with a legend, instead of the single line", async () => {
    const series = [
      { label: "ab12 temperature=0.3", points: curve(30) },
      { label: "cd34 temperature=0.9", points: curve(30).map((p) => ({ x: p.x, y: p.y + 3 })) },
    ];
    const svg = drawChartSvg("Reward mean by step", [], { ...size, series });
    expect(colourPixels(svg, "#0072b2")).toBeGreaterThan(300);
    expect(colourPixels(svg, "#e69f00")).toBeGreaterThan(300);
    expect(linePixels(svg)).toBe(0);
    expect(svg).toContain(">ab12 temperature=0.3</text>");
    expect(svg).toContain(">cd34 temperature=0.9</text>");
    // The y axis spans both: the second series' top (about 4) is on the chart.
    expect(svg).toMatch(/>4(\.0)?<\/text>/);
    const png = await renderChartPng({ title: "Reward", points: series[0]!.points, series });
    expect(ihdr(png!)).toEqual(CHART_SIZE);
  });

  it("declines when every series is empty", async () => {
    expect(await renderChartPng({ title: "r", points: [], series: [{ label: "a", points: [] }] })).toBeUndefined();
  });
});
