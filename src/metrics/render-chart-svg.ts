// Draws a line chart as an SVG document by code: title, axes with a few labelled ticks, grid lines and the line.
import type { ChartPoint } from "./render-chart-points.ts";
import { extent, formatTick, formatValue, niceTicks, paddedRange } from "./render-chart-ticks.ts";

export interface ChartSvgOptions {
  width: number;
  height: number;
  /** Under the x axis, e.g. "step". */
  xLabel?: string;
  /** Several labelled lines instead of `points` (each finite and sorted), drawn in turn with a legend. */
  series?: ReadonlyArray<{ label: string; points: readonly ChartPoint[] }>;
}

/** Distinct colours that stay apart for people with the common colour-vision deficiencies (Okabe-Ito). */
const SERIES_COLORS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#f0e442", "#000000"] as const;

const FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
const COLOR = {
  background: "#ffffff",
  text: "#23272a",
  muted: "#6a6f76",
  grid: "#e3e5e8",
  axis: "#99a0a8",
  line: "#5865f2",
} as const;
const MARGIN = { top: 48, right: 24, bottom: 44, left: 68 } as const;
const TITLE_PX = 16;
const LABEL_PX = 12;
const TITLE_INSET = 16;

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Drops control characters and U+FFFE/U+FFFF, turns line breaks and tabs into spaces, lone surrogates into U+FFFD. */
function xmlSafe(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHigh(c) && isLow(text.charCodeAt(i + 1))) {
      out += text.slice(i, i + 2);
      i++;
    } else if (isHigh(c) || isLow(c)) out += "\ufffd";
    else if (c === 0x09 || c === 0x0a || c === 0x0d) out += " ";
    else if (c >= 0x20 && c !== 0xfffe && c !== 0xffff) out += text[i] ?? "";
  }
  return out;
}

/**
 * Text that is safe inside an SVG element: markup escaped, characters XML 1.0 forbids (controls, lone surrogates)
 * replaced, since resvg refuses the whole document over one of them.
 */
export function escapeSvgText(text: string): string {
  return xmlSafe(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** At most `max` characters (whole code points), ending in "…" when cut. */
function clipTitle(title: string, max: number): string {
  const chars = Array.from(title.trim());
  return chars.length <= max ? chars.join("") : `${chars.slice(0, Math.max(1, max - 1)).join("")}…`;
}

const r1 = (v: number): string => String(Math.round(v * 10) / 10);

function text(x: number, y: number, content: string, attrs: string): string {
  return `<text x="${r1(x)}" y="${r1(y)}" ${attrs}>${escapeSvgText(content)}</text>`;
}

/** Position of `v` between lo and hi as 0..1, computed on halves so huge values do not overflow. */
const fraction = (v: number, lo: number, hi: number): number => (v / 2 - lo / 2) / (hi / 2 - lo / 2);

/** `points` must be finite and sorted by x (prepareChartPoints); an empty list draws the frame and "no data". */
export function drawChartSvg(title: string, linePoints: readonly ChartPoint[], options: ChartSvgOptions): string {
  const { width, height } = options;
  const series = options.series?.length ? options.series : undefined;
  // The axes span every line.
  const points = series ? series.flatMap((s) => s.points) : linePoints;
  const left = MARGIN.left;
  const top = MARGIN.top;
  const right = width - MARGIN.right;
  const bottom = height - MARGIN.bottom;
  const [xMin, xMax] = extent(points.map((p) => p.x));
  const [yMin, yMax] = extent(points.map((p) => p.y));
  const empty = points.length === 0;
  const integerX = points.every((p) => Number.isInteger(p.x));
  // One step alone sits mid-axis between whole-number neighbours rather than between 4.5 and 5.5.
  const [x0, x1] = empty ? [0, 1] : paddedRange(xMin, xMax, 0, integerX ? 1 : 0);
  const [y0, y1] = empty ? [0, 1] : paddedRange(yMin, yMax, 0.06);
  const xTicks = niceTicks(x0, x1, Math.max(2, Math.floor((right - left) / 110)), integerX);
  const yTicks = niceTicks(y0, y1, Math.max(2, Math.floor((bottom - top) / 50)));
  const sx = (x: number): number => left + (right - left) * fraction(x, x0, x1);
  const sy = (y: number): number => bottom - (bottom - top) * fraction(y, y0, y1);

  const last = series ? undefined : points.at(-1);
  const caption = last ? `last ${formatValue(last.y)}` : "";
  // Character widths are estimated (about 0.6 em in a sans font, 0.7 em in bold), so the title stops short of the caption.
  const titleRoom = width - 2 * TITLE_INSET - caption.length * LABEL_PX * 0.6 - 16;
  const parts: string[] = [
    `<rect width="${width}" height="${height}" fill="${COLOR.background}"/>`,
    text(
      TITLE_INSET,
      28,
      clipTitle(title, Math.floor(titleRoom / (TITLE_PX * 0.7))),
      `font-size="${TITLE_PX}" font-weight="bold" fill="${COLOR.text}"`,
    ),
  ];
  for (const v of yTicks.values) {
    const y = sy(v);
    if (y < top - 0.5 || y > bottom + 0.5) continue;
    parts.push(
      `<line x1="${left}" y1="${r1(y)}" x2="${right}" y2="${r1(y)}" stroke="${COLOR.grid}" stroke-width="1"/>`,
    );
    parts.push(
      text(
        left - 8,
        y + LABEL_PX / 3,
        formatTick(v, yTicks.step),
        `font-size="${LABEL_PX}" text-anchor="end" fill="${COLOR.muted}"`,
      ),
    );
  }
  for (const v of xTicks.values) {
    const x = sx(v);
    if (x < left - 0.5 || x > right + 0.5) continue;
    parts.push(
      `<line x1="${r1(x)}" y1="${bottom}" x2="${r1(x)}" y2="${bottom + 5}" stroke="${COLOR.axis}" stroke-width="1"/>`,
    );
    parts.push(
      text(
        x,
        bottom + 19,
        formatTick(v, xTicks.step),
        `font-size="${LABEL_PX}" text-anchor="middle" fill="${COLOR.muted}"`,
      ),
    );
  }
  parts.push(`<path d="M${left} ${top}V${bottom}H${right}" fill="none" stroke="${COLOR.axis}" stroke-width="1"/>`);
  if (options.xLabel)
    parts.push(
      text(right, height - 6, options.xLabel, `font-size="${LABEL_PX}" text-anchor="end" fill="${COLOR.muted}"`),
    );

  if (series) {
    const legend: string[] = [];
    series.forEach((s, i) => {
      const color = SERIES_COLORS[i % SERIES_COLORS.length]!;
      const d = s.points.map((p, j) => `${j === 0 ? "M" : "L"}${r1(sx(p.x))} ${r1(sy(p.y))}`).join("");
      if (s.points.length > 1)
        parts.push(
          `<path d="${d}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>`,
        );
      const end = s.points.at(-1);
      if (end) parts.push(`<circle cx="${r1(sx(end.x))}" cy="${r1(sy(end.y))}" r="3" fill="${color}"/>`);
      // The legend runs along the top of the plot, one label per line, as far as the width allows.
      const y = top + 14 + 14 * i;
      if (y < bottom - 4)
        legend.push(
          `<rect x="${left + 8}" y="${y - 8}" width="10" height="3" fill="${color}"/>`,
          text(left + 22, y - 4, clipTitle(s.label, 40), `font-size="${LABEL_PX - 1}" fill="${COLOR.text}"`),
        );
    });
    parts.push(...legend);
  } else if (!last) {
    parts.push(
      text(
        (left + right) / 2,
        (top + bottom) / 2,
        "no data yet",
        `font-size="${LABEL_PX + 2}" text-anchor="middle" fill="${COLOR.muted}"`,
      ),
    );
  } else {
    if (points.length > 1) {
      const d = points.map((p, i) => `${i === 0 ? "M" : "L"}${r1(sx(p.x))} ${r1(sy(p.y))}`).join("");
      parts.push(
        `<path d="${d}" fill="none" stroke="${COLOR.line}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>`,
      );
    }
    parts.push(`<circle cx="${r1(sx(last.x))}" cy="${r1(sy(last.y))}" r="3.5" fill="${COLOR.line}"/>`);
    parts.push(
      text(width - TITLE_INSET, 28, caption, `font-size="${LABEL_PX}" text-anchor="end" fill="${COLOR.muted}"`),
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">`,
    ...parts,
    "</svg>",
  ].join("\n");
}
