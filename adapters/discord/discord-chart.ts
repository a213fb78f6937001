// The chart as a PNG attachment (reward.png) shown in the chart's embed; the sparkline text stays as the fallback.
import type { APIEmbed, AttachmentPayload } from "discord.js";
import type { ChartRenderer } from "../../src/metrics/render-chart.ts";
import type { Logger } from "../../src/log.ts";
import type { ReplyChart } from "../../src/reply.ts";
import { DISCORD } from "./discord-limits.ts";
import type { DiscordMessage } from "./discord-render.ts";

export const CHART_FILE = "reward.png";
const CHART_URL = `attachment://${CHART_FILE}`;

export interface ChartDeps {
  renderChart: ChartRenderer;
  redact: (text: string) => string;
  log: Logger;
}

/** The message with the chart's PNG attached, or unchanged (sparkline only) when there is none or drawing fails. */
export async function attachChart(
  message: DiscordMessage,
  chart: ReplyChart | undefined,
  deps: ChartDeps,
): Promise<DiscordMessage> {
  if (!chart) return message;
  let png: Buffer | undefined;
  try {
    // The image shows the title too, so it is redacted like every other text the bot sends.
    png = await deps.renderChart({ ...chart, title: deps.redact(chart.title) });
  } catch (err) {
    deps.log.warn("discord: chart image failed; the reply keeps its sparkline", {
      chart: deps.redact(chart.title),
      err,
    });
    return message;
  }
  if (!png) return message;
  const embeds = message.embeds.map((e) => ({ ...e }));
  const image = { url: CHART_URL };
  const at = message.chartEmbed;
  const target: APIEmbed | undefined = at !== undefined ? embeds[at] : undefined;
  // Trimming may have dropped the chart's embed: an image-only embed costs no characters, only an embed slot.
  if (target) target.image = image;
  else if (embeds.length < DISCORD.embeds) embeds.push({ image, color: embeds.at(-1)?.color ?? 0x5865f2 });
  else {
    const last = embeds.at(-1);
    if (!last || last.image) return message;
    last.image = image;
  }
  return { ...message, embeds, files: [{ name: CHART_FILE, data: png }] };
}

/** The same message without the attachment or the embed image pointing at it. */
export function withoutChart(message: DiscordMessage): DiscordMessage {
  if (!message.files?.length) return message;
  const embeds = message.embeds
    .map((e): APIEmbed => {
      if (e.image?.url !== CHART_URL) return e;
      const { image: _image, ...rest } = e;
      return rest;
    })
    .filter((e) => e.title || e.description || e.fields?.length || e.footer || e.image);
  return { ...message, embeds, files: [] };
}

/** discord.js's shape for the files of interaction replies, edits and follow-ups; spread into their options. */
export function filesOption(message: DiscordMessage): { files?: AttachmentPayload[] } {
  // An empty list would send attachments: [] and, on an edit, remove what the message already carries.
  return message.files?.length ? { files: message.files.map((f) => ({ attachment: f.data, name: f.name })) } : {};
}

/**
 * Sends the message; if Discord refuses it while it carries the chart (no Attach Files permission: 403, a file too
 * large: 413, a form it does not take: 400), sends it once more without, so a picture never costs the answer.
 */
export async function sendWithChart<T>(
  message: DiscordMessage,
  send: (m: DiscordMessage) => Promise<T>,
  log: Logger,
): Promise<T> {
  try {
    return await send(message);
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (!message.files?.length || (status !== 400 && status !== 403 && status !== 413)) throw err;
    log.warn("discord: message with the chart image refused; sending it without", { status, err });
    return send(withoutChart(message));
  }
}
