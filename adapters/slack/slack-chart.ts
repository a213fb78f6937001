// Shares a reply's chart as a PNG next to the message that carries it; the message's sparkline stays the fallback.
import type { ChartRenderer } from "../../src/metrics/render-chart.ts";
import type { Logger } from "../../src/log.ts";
import type { Redactor } from "../../src/redact.ts";
import type { ReplyChart } from "../../src/reply.ts";
import type { SlackMessenger } from "./slack-messenger.ts";

export const CHART_FILE = "reward.png";

export interface SlackChartDeps {
  messenger: SlackMessenger;
  renderChart: ChartRenderer;
  redact: Redactor;
  log: Logger;
}

/**
 * Draws the chart and uploads it into `channel` (in `thread` when given). Never throws and never undoes the post:
 * the message is already out with its sparkline, so a failure is only logged.
 */
export async function shareChart(
  chart: ReplyChart | undefined,
  where: { channel: string; thread?: string },
  deps: SlackChartDeps,
): Promise<boolean> {
  if (!chart) return false;
  const title = deps.redact(chart.title);
  let png: Buffer | undefined;
  try {
    png = await deps.renderChart({ ...chart, title });
  } catch (err) {
    deps.log.warn("slack: chart image failed; the message keeps its sparkline", {
      channel: where.channel,
      chart: title,
      err,
    });
    return false;
  }
  if (!png) return false;
  const sent = await deps.messenger.upload(
    where.channel,
    { data: png, filename: CHART_FILE, title, altText: `Line chart: ${title}` },
    where.thread,
  );
  return sent.ok;
}
