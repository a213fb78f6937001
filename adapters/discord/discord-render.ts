// Renders a neutral Reply as a Discord message (embeds and button rows), redacted and within every Discord limit.
import { ButtonStyle, ComponentType } from "discord.js";
import type { APIActionRowComponent, APIButtonComponentWithCustomId, APIEmbed, APIEmbedField } from "discord.js";
import { extent } from "../../src/metrics/render-chart-ticks.ts";
import { REDACTED } from "../../src/redact.ts";
import { isEphemeral, type Reply, type ReplyButton, type ReplyChart, type ReplyContent } from "../../src/reply.ts";
import { splitText } from "../split-text.ts";
import { clip, DISCORD } from "./discord-limits.ts";
import { escapeDiscord } from "./discord-markdown.ts";
import { sparkline } from "../render-text.ts";

export type ButtonRow = APIActionRowComponent<APIButtonComponentWithCustomId>;

export interface DiscordFile {
  name: string;
  data: Buffer;
  /** Sent as the part's type (default: image/png, the chart's). */
  contentType?: string;
}

export interface DiscordMessage {
  embeds: APIEmbed[];
  components: ButtonRow[];
  ephemeral: boolean;
  /** What did not fit, for the log: nothing is ever sent over a limit, so a post never fails on size. */
  trimmed: string[];
  /** The index in `embeds` of the chart's embed (its sparkline), when the reply has a chart and it fit. */
  chartEmbed?: number;
  /** Files uploaded with the message (the chart's PNG, a reply's whole text); embeds show the PNG as attachment://name. */
  files?: DiscordFile[];
}

export interface RenderOptions {
  redact: (text: string) => string;
  /** The custom_id standing for a button (at most 100 characters). */
  buttonId: (button: ReplyButton) => string;
}

const COLOR = { ok: 0x5865f2, error: 0xed4245, code: 0x4f545c } as const;
const FENCE = 8; // "```\n" + "\n```"
const NOTE_RESERVE = 100;
const SPARK_POINTS = 60;

/** An embed before serialisation: code is kept unfenced so trimming can re-fence it. */
interface Draft {
  title?: string;
  text?: string;
  code?: string;
  fields: APIEmbedField[];
  color: number;
  /** The chart's embed, where its image goes. */
  chart?: boolean;
}

const fence = (code: string): string => "```\n" + code + "\n```";
// A ``` inside the content would close the fence early; a zero-width space keeps it visible but inert.
const escapeFence = (code: string): string => code.replace(/```/g, "`\u200b``");

function clipCode(code: string, max: number): string {
  if (code.length <= max) return code;
  let cut = code.lastIndexOf("\n", max - 2);
  if (cut < max / 2) cut = max - 2;
  const last = code.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${code.slice(0, Math.max(0, cut))}\n…`;
}

function toEmbed(d: Draft): APIEmbed {
  const embed: APIEmbed = { color: d.color };
  if (d.title) embed.title = clip(d.title, DISCORD.title);
  const description = d.code !== undefined ? fence(d.code) : d.text;
  if (description) embed.description = clip(description, DISCORD.description);
  if (d.fields.length) embed.fields = d.fields;
  return embed;
}

function size(e: APIEmbed): number {
  return (
    (e.title?.length ?? 0) +
    (e.description?.length ?? 0) +
    (e.footer?.text.length ?? 0) +
    (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

const hasContent = (d: Draft): boolean => !!d.title || !!d.text || d.code !== undefined || d.fields.length > 0;

/** The same draft cut down to at most `budget` counted characters (or undefined when nothing useful fits). */
function shrink(d: Draft, budget: number): Draft | undefined {
  let left = budget;
  const out: Draft = { fields: [], color: d.color, chart: d.chart };
  if (d.title) {
    out.title = clip(d.title, Math.min(DISCORD.title, left));
    left -= out.title.length;
  }
  if (d.code !== undefined && left > FENCE + 20) {
    out.code = clipCode(d.code, left - FENCE);
    left -= out.code.length + FENCE;
  } else if (d.text && left > 20) {
    out.text = clip(d.text, left);
    left -= out.text.length;
  }
  for (const f of d.fields) {
    if (f.name.length + f.value.length > left) break;
    out.fields.push(f);
    left -= f.name.length + f.value.length;
  }
  return hasContent(out) && left >= 0 ? out : undefined;
}

function chartText(chart: ReplyChart): string {
  const ys = chart.points.map((p) => p.y).filter(Number.isFinite);
  if (ys.length === 0) return "(no points yet)";
  const [min, max] = extent(ys);
  const fmt = (v: number): string =>
    Math.abs(v) >= 1000 || Number.isInteger(v) ? String(Math.round(v * 1000) / 1000) : v.toPrecision(4);
  const stats = `min ${fmt(min)} · max ${fmt(max)} · last ${fmt(ys.at(-1) ?? 0)} · ${ys.length} points`;
  return `${fence(sparkline(ys, SPARK_POINTS) || "·")}\n${stats}`;
}

/** Redacted text escaped, the redaction marker left readable (brackets alone link nothing). */
function escapeRedacted(text: string): string {
  return escapeDiscord(text).split(escapeDiscord(REDACTED)).join(REDACTED);
}

/** [label](url), with the characters that would end the link early escaped. */
function markdownLink(label: string, url: string): string {
  // Only web links are made clickable; anything else is shown as the text it is.
  if (!/^https?:\/\//i.test(url)) return `${label} (${escapeDiscord(url)})`;
  const safeUrl = url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return `[${label || safeUrl}](${safeUrl})`;
}

function draftsOf(reply: ReplyContent, redact: (s: string) => string): Draft[] {
  // Everything the reply says is text, never markup: redacted, then escaped. Code goes in fences, where only ``` counts.
  const r = (s: string): string => escapeRedacted(redact(s));
  const color = reply.error ? COLOR.error : COLOR.ok;
  const texts = reply.text ? splitText(r(reply.text), DISCORD.description, { wordBreaks: false }) : [];
  const head: Draft[] = [{ title: reply.title ? r(reply.title) : undefined, text: texts[0], fields: [], color }];
  for (const t of texts.slice(1)) head.push({ text: t, fields: [], color });

  const fields: APIEmbedField[] = (reply.fields ?? []).map((f) => {
    const value = clip(r(f.value).trim() || "—", DISCORD.fieldValue);
    return { name: clip(r(f.label).trim() || "\u200b", DISCORD.fieldName), value, inline: value.length <= 40 };
  });
  // Links go in the embed as markdown, packed into as few fields as their 1,024-character values allow.
  // Brackets would end the link's label early.
  const links = (reply.links ?? []).map((l) =>
    clip(markdownLink(r(l.label.replace(/[[\]]/g, "")), redact(l.url)), DISCORD.fieldValue),
  );
  let pack = "";
  for (const line of links) {
    if (pack && pack.length + 1 + line.length > DISCORD.fieldValue) {
      fields.push({ name: "Links", value: pack });
      pack = "";
    }
    pack = pack ? `${pack}\n${line}` : line;
  }
  if (pack) fields.push({ name: "Links", value: pack });

  let target = head[head.length - 1]!;
  const groups = (reply.fields ?? []).map((f) => f.group);
  fields.forEach((field, i) => {
    // A group's fields sit in an embed titled with the group.
    const group = groups[i];
    if (group !== undefined && group !== groups[i - 1]) {
      target = { title: r(group), fields: [], color };
      head.push(target);
    } else if (target.fields.length === DISCORD.fields) {
      target = { fields: [], color };
      head.push(target);
    }
    target.fields.push(field);
  });

  const drafts = [...head];
  for (const block of reply.blocks ?? []) {
    const title = block.title ? r(block.title) : undefined;
    const pieces =
      block.kind === "code"
        ? splitText(escapeFence(redact(block.content)), DISCORD.description - FENCE, { wordBreaks: false })
        : splitText(r(block.content), DISCORD.description, { wordBreaks: false });
    pieces.forEach((piece, i) => {
      const t = i === 0 ? title : undefined;
      drafts.push(
        block.kind === "code"
          ? { title: t, code: piece, fields: [], color: COLOR.code }
          : { title: t, text: piece || "\u200b", fields: [], color },
      );
    });
  }
  if (reply.chart)
    drafts.push({ title: r(reply.chart.title), text: chartText(reply.chart), fields: [], color, chart: true });
  const kept = drafts.filter(hasContent);
  return kept.length ? kept : [{ text: "Done.", fields: [], color }];
}

interface Fitted {
  embeds: APIEmbed[];
  chartAt?: number;
}

/** Keep as much as fits in 10 embeds and 6,000 characters, in order; say what was left out. */
function fit(drafts: Draft[], trimmed: string[]): Fitted {
  const full = drafts.map(toEmbed);
  const total = full.reduce((n, e) => n + size(e), 0);
  const chartIndex = drafts.findIndex((d) => d.chart);
  if (full.length <= DISCORD.embeds && total <= DISCORD.embedTotal)
    return { embeds: full, ...(chartIndex >= 0 ? { chartAt: chartIndex } : {}) };
  let budget = DISCORD.embedTotal - NOTE_RESERVE;
  const out: APIEmbed[] = [];
  let chartAt: number | undefined;
  for (const draft of drafts) {
    if (out.length === DISCORD.embeds) break;
    const embed = toEmbed(draft);
    if (size(embed) <= budget) {
      if (draft.chart) chartAt = out.length;
      out.push(embed);
      budget -= size(embed);
      continue;
    }
    const part = shrink(draft, budget);
    if (part) {
      if (part.chart) chartAt = out.length;
      out.push(toEmbed(part));
    }
    break;
  }
  const shown = out.reduce((n, e) => n + size(e), 0);
  trimmed.push(`embeds: ${full.length} -> ${out.length}, characters: ${total} -> ${shown}`);
  const last = out.at(-1) ?? { color: COLOR.ok };
  if (out.length === 0) out.push(last);
  last.footer = { text: `Trimmed to fit Discord: ${total - shown} characters not shown.` };
  return { embeds: out, ...(chartAt !== undefined ? { chartAt } : {}) };
}

function styleOf(b: ReplyButton): APIButtonComponentWithCustomId["style"] {
  if (b.kind === "cancel") return ButtonStyle.Secondary;
  if (b.style === "danger") return ButtonStyle.Danger;
  if (b.style === "primary") return ButtonStyle.Primary;
  return ButtonStyle.Secondary;
}

function rowsOf(buttons: readonly ReplyButton[], o: RenderOptions, trimmed: string[]): ButtonRow[] {
  const max = DISCORD.rows * DISCORD.buttonsPerRow;
  const seen = new Set<string>();
  const made: APIButtonComponentWithCustomId[] = [];
  for (const b of buttons) {
    if (made.length === max) break;
    const id = o.buttonId(b);
    // Two buttons with one custom_id would be refused, and would do the same thing anyway.
    if (id.length === 0 || id.length > DISCORD.customId || seen.has(id)) continue;
    seen.add(id);
    made.push({
      type: ComponentType.Button,
      style: styleOf(b),
      label: clip(o.redact(b.label).trim() || "…", DISCORD.buttonLabel),
      custom_id: id,
    });
  }
  if (made.length < buttons.length) trimmed.push(`buttons: ${buttons.length} -> ${made.length}`);
  const rows: ButtonRow[] = [];
  for (let i = 0; i < made.length; i += DISCORD.buttonsPerRow) {
    rows.push({ type: ComponentType.ActionRow, components: made.slice(i, i + DISCORD.buttonsPerRow) });
  }
  return rows;
}

/** True when the reply renders with nothing trimmed: a page of it may be this big. */
export function fitsDiscord(reply: ReplyContent): boolean {
  let n = 0;
  return (
    renderDiscordContent(reply, {
      redact: (s) => s,
      buttonId: (b) => (b.kind === "page" ? `rl:p:${b.page.index}:${b.page.id}` : `rl:probe:${n++}`),
    }).trimmed.length === 0
  );
}

/** The reply as a Discord message: what it says rendered, shown to the asker alone when its delivery says so. */
export function renderDiscordReply(reply: Reply, options: RenderOptions): DiscordMessage {
  return { ...renderDiscordContent(reply, options), ephemeral: isEphemeral(reply) };
}

function renderDiscordContent(reply: ReplyContent, options: RenderOptions): Omit<DiscordMessage, "ephemeral"> {
  const trimmed: string[] = [];
  const { embeds, chartAt } = fit(draftsOf(reply, options.redact), trimmed);
  const components = rowsOf(reply.buttons ?? [], options, trimmed);
  return { embeds, components, trimmed, ...(chartAt !== undefined ? { chartEmbed: chartAt } : {}) };
}

/** A one-line status embed (progress, "Cancelled."), redacted and clipped. */
export function statusEmbed(text: string, redact: (s: string) => string, error = false): APIEmbed {
  return {
    description: clip(escapeRedacted(redact(text)), DISCORD.description) || "…",
    color: error ? COLOR.error : COLOR.ok,
  };
}
