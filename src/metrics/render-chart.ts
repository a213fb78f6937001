// Turns a reply's chart into a PNG: the SVG drawn by code, rasterised by resvg (prebuilt binary, system fonts).
import type { ReplyChart } from "../reply.ts";
import { prepareChartPoints } from "./render-chart-points.ts";
import { drawChartSvg } from "./render-chart-svg.ts";

/** Adapters take this as a parameter, so tests can hand in one that fails. */
export type ChartRenderer = (chart: ReplyChart) => Promise<Buffer | undefined>;

export interface ChartImageOptions {
  width?: number;
  height?: number;
  /** The most points drawn; longer series are downsampled (default: two per horizontal pixel of the plot). */
  maxPoints?: number;
  xLabel?: string;
}

export const CHART_SIZE = { width: 600, height: 300 } as const;
const MIN_SIDE = 200;
const MAX_SIDE = 2000;

const side = (value: number | undefined, fallback: number): number =>
  Math.round(Math.min(MAX_SIDE, Math.max(MIN_SIDE, Number.isFinite(value) ? (value as number) : fallback)));

/**
 * A PNG of the chart, or undefined when no point has a finite x and y (there is nothing to draw).
 * Rejects only if resvg fails; callers fall back to the text sparkline.
 */
export async function renderChartPng(chart: ReplyChart, options: ChartImageOptions = {}): Promise<Buffer | undefined> {
  const width = side(options.width, CHART_SIZE.width);
  const height = side(options.height, CHART_SIZE.height);
  const maxPoints = options.maxPoints ?? 2 * width;
  const series = chart.series
    ?.map((s) => ({ label: s.label, points: prepareChartPoints(s.points, maxPoints) }))
    .filter((s) => s.points.length > 0);
  const points = series?.length ? series.flatMap((s) => s.points) : prepareChartPoints(chart.points, maxPoints);
  if (points.length === 0) return undefined;
  const svg = drawChartSvg(chart.title, series?.length ? [] : points, {
    width,
    height,
    xLabel: options.xLabel ?? "step",
    ...(series?.length ? { series } : {}),
  });
  // renderAsync rasterises on libuv's thread pool, so the gateway heartbeats and HTTP acks are not held up.
  // Loaded on first use: a bot that never draws a chart does not carry the rasteriser in memory.
  const { renderAsync } = await import("@resvg/resvg-js");
  const image = await renderAsync(svg, {
    font: { loadSystemFonts: true },
    fitTo: { mode: "original" },
    logLevel: "off",
  });
  return image.asPng();
}
