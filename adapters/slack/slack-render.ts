// Renders a neutral Reply as a Block Kit message within Slack's limits, with a plain-text fallback; redacts secrets.
import type { types } from "@slack/bolt";
import { extent } from "../../src/metrics/render-chart-ticks.ts";
import type { Redactor } from "../../src/redact.ts";
import { showPeople } from "../../src/reply.ts";
import { mapReplyText, redactReply } from "../redact-reply.ts";
import type { PeopleNames } from "./slack-people.ts";
import type { ReplyContent, ReplyBlock, ReplyButton, ReplyChart, ReplyField, ReplyLink } from "../../src/reply.ts";
import { sparkline } from "../render-text.ts";
import { encodeButtonValue } from "./slack-button-value.ts";
import { escapeMarkup, escapeMrkdwn, mrkdwnLink, splitText, truncate } from "./slack-mrkdwn.ts";

export type KnownBlock = types.KnownBlock;

/** The published Block Kit limits this renderer keeps to. */
export const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3000,
  fieldsPerSection: 10,
  fieldText: 2000,
  headerText: 150,
  actionsElements: 25,
  buttonText: 75,
  contextText: 2000,
  fallbackText: 4000,
} as const;

/**
 * A page's size: Slack takes much longer messages, but collapses them behind "Show more" and a wall of fields is
 * read by nobody; past this a reply is paged.
 */
const SLACK_PAGE_CHARS = 12_000;

/** Caps that keep one long part from crowding out the rest of the message. */
const MAX_TEXT_SECTIONS = 6;
const MAX_CODE_SECTIONS = 4;
const MAX_LINK_SECTIONS = 2;
const MAX_ACTIONS_BLOCKS = 4;
const MAX_CHART_POINTS = 60;
const FENCE = "```";

export interface SlackMessage {
  /** Plain fallback for notifications and clients that cannot show blocks; always set. */
  text: string;
  blocks: KnownBlock[];
}

export interface RenderOptions {
  redact?: Redactor;
  /** A line under the message (who asked, which command) in mrkdwn; the caller escapes what it did not write. */
  footer?: string;
  /** People's names by id (slack-people): shown instead of their ids, with no mention. */
  names?: PeopleNames;
}

/** Verbatim: Slack makes no links from bare URLs or channel names in text the bot did not mark up itself. */
const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text, verbatim: true });
const section = (text: string): KnownBlock => ({ type: "section", text: mrkdwn(text) });
const context = (text: string): KnownBlock => ({
  type: "context",
  elements: [mrkdwn(truncate(text, SLACK_LIMITS.contextText))],
});

/** What the renderer had to cut, so that a pager can tell whether a page fits whole. */
type Cuts = string[];

function proseSections(text: string, maxSections: number, cuts: Cuts): KnownBlock[] {
  const pieces = splitText(escapeMrkdwn(text), SLACK_LIMITS.sectionText);
  const kept = pieces.slice(0, maxSections);
  if (pieces.length > kept.length) {
    cuts.push("text sections");
    const last = kept.length - 1;
    kept[last] =
      `${truncate(kept[last] ?? "", SLACK_LIMITS.sectionText - 40)}\n_…${pieces.length - kept.length} more parts not shown_`;
  }
  return kept.filter((p) => p.trim().length > 0).map(section);
}

function fieldSections(fields: readonly ReplyField[]): KnownBlock[] {
  const out: KnownBlock[] = [];
  // A group's heading comes before its first field; a section of fields never spans two groups.
  const runs: ReplyField[][] = [];
  for (const f of fields) {
    const open = runs.at(-1);
    if (open && open[0]?.group === f.group && open.length < SLACK_LIMITS.fieldsPerSection) open.push(f);
    else runs.push([f]);
  }
  runs.forEach((run, r) => {
    const group = run[0]?.group;
    if (group && runs[r - 1]?.[0]?.group !== group) out.push(section(`*${truncate(escapeMrkdwn(group), 200)}*`));
    const texts = run.map((f) => {
      const label = truncate(escapeMrkdwn(f.label.trim()), 200);
      const head = label ? `*${label}*\n` : "";
      return mrkdwn(`${head}${truncate(escapeMrkdwn(f.value), SLACK_LIMITS.fieldText - head.length)}` || "-");
    });
    out.push({ type: "section", fields: texts });
  });
  return out;
}

function codeSections(block: ReplyBlock, cuts: Cuts): KnownBlock[] {
  // A fence inside the content would end the code block early.
  const content = showPeople(escapeMarkup(block.content), (id) => id).replace(/```/g, "`\u200b`\u200b`");
  const room = SLACK_LIMITS.sectionText - 2 * (FENCE.length + 1);
  const pieces = splitText(content, room, { wordBreaks: false });
  const kept = pieces.slice(0, MAX_CODE_SECTIONS);
  const out = kept.map((piece) => section(`${FENCE}\n${piece || " "}\n${FENCE}`));
  const hidden = pieces.slice(kept.length).reduce((n, p) => n + p.length, 0);
  if (hidden > 0) {
    cuts.push("code sections");
    out.push(context(`…${hidden} more characters not shown`));
  }
  return out;
}

function replyBlockSections(block: ReplyBlock, cuts: Cuts): KnownBlock[] {
  const title = block.title ? [section(`*${truncate(escapeMrkdwn(block.title), 200)}*`)] : [];
  return [
    ...title,
    ...(block.kind === "code" ? codeSections(block, cuts) : proseSections(block.content, MAX_TEXT_SECTIONS, cuts)),
  ];
}

function chartSections(chart: ReplyChart | undefined): KnownBlock[] {
  const ys = (chart?.points ?? []).map((p) => p.y).filter(Number.isFinite);
  if (!chart || ys.length === 0) return [];
  const fmt = (v: number) => (Math.abs(v) >= 1000 || Number.isInteger(v) ? String(Math.round(v)) : v.toPrecision(3));
  const [min, max] = extent(ys);
  const stats = `min ${fmt(min)} · max ${fmt(max)} · last ${fmt(ys.at(-1) ?? 0)}`;
  return [section(`*${truncate(escapeMrkdwn(chart.title), 200)}*\n\`${sparkline(ys, MAX_CHART_POINTS)}\`  ${stats}`)];
}

function linkSections(links: readonly ReplyLink[]): KnownBlock[] {
  if (links.length === 0) return [];
  const line = links.map((l) => mrkdwnLink(l.url, truncate(l.label, 200))).join("  ·  ");
  return splitText(line, SLACK_LIMITS.sectionText).slice(0, MAX_LINK_SECTIONS).map(section);
}

function actionBlocks(buttons: readonly ReplyButton[], notes: string[]): KnownBlock[] {
  const elements: types.Button[] = [];
  buttons.forEach((b, i) => {
    const value = encodeButtonValue(b);
    if (value === undefined) {
      notes.push(`The "${b.label}" button was left out: its command is too long for a button. Type it instead.`);
      return;
    }
    elements.push({
      type: "button",
      action_id: `rl_btn_${i}`,
      text: { type: "plain_text", text: truncate(b.label || "…", SLACK_LIMITS.buttonText), emoji: true },
      value,
      ...(b.style ? { style: b.style } : {}),
    });
  });
  const out: KnownBlock[] = [];
  for (let i = 0; i < elements.length && out.length < MAX_ACTIONS_BLOCKS; i += SLACK_LIMITS.actionsElements) {
    out.push({ type: "actions", elements: elements.slice(i, i + SLACK_LIMITS.actionsElements) });
  }
  const shown = out.length * SLACK_LIMITS.actionsElements;
  if (elements.length > shown) notes.push(`${elements.length - shown} more buttons not shown.`);
  return out;
}

function fallbackText(reply: ReplyContent): string {
  const firstField = reply.fields?.[0];
  const parts = [
    reply.title,
    reply.text,
    !reply.title && !reply.text && firstField ? `${firstField.label}: ${firstField.value}` : undefined,
    !reply.title && !reply.text && !firstField ? reply.blocks?.[0]?.content : undefined,
  ].filter((p): p is string => typeof p === "string" && p.trim().length > 0);
  const text = parts.join("\n") || "rl-chatops";
  return truncate(escapeMrkdwn(text), SLACK_LIMITS.fallbackText);
}

export function renderSlack(reply: ReplyContent, options: RenderOptions = {}): SlackMessage {
  return renderMeasured(reply, options, []);
}

/** True when the reply renders with nothing cut (every part, every button): a page of it may be this big. */
export function fitsSlack(reply: ReplyContent, options: Pick<RenderOptions, "footer"> = {}): boolean {
  const cuts: Cuts = [];
  const { blocks } = renderMeasured(reply, options, cuts);
  return cuts.length === 0 && JSON.stringify(blocks).length <= SLACK_PAGE_CHARS;
}

function renderMeasured(reply: ReplyContent, options: RenderOptions, cuts: Cuts): SlackMessage {
  const redacted = options.redact ? redactReply(reply, options.redact) : reply;
  const names = options.names;
  const r = mapReplyText(redacted, (s) => showPeople(s, (id) => names?.get(id) ?? id));
  const head: KnownBlock[] = r.title?.trim()
    ? [
        {
          type: "header",
          text: { type: "plain_text", text: truncate(r.title.trim(), SLACK_LIMITS.headerText), emoji: true },
        },
      ]
    : [];
  const body: KnownBlock[] = [
    ...(r.text ? proseSections(r.text, MAX_TEXT_SECTIONS, cuts) : []),
    ...fieldSections(r.fields ?? []),
    ...(r.blocks ?? []).flatMap((b) => replyBlockSections(b, cuts)),
    ...chartSections(r.chart),
  ];
  const notes: string[] = [];
  const tail: KnownBlock[] = [...linkSections(r.links ?? []), ...actionBlocks(r.buttons ?? [], notes)];
  if (notes.length > 0) {
    cuts.push("buttons");
    tail.push(context(escapeMrkdwn(notes.join(" "))));
  }
  if (options.footer) tail.push(context(options.redact ? options.redact(options.footer) : options.footer));
  // Never a failed post: past the block limit, the body is cut and says so; the header and buttons stay.
  const room = SLACK_LIMITS.blocks - head.length - tail.length;
  if (body.length > room) cuts.push("blocks");
  const kept =
    body.length <= room
      ? body
      : [...body.slice(0, room - 1), context(`…truncated: ${body.length - room + 1} more parts not shown`)];
  return { text: fallbackText(r), blocks: [...head, ...kept, ...tail] };
}

/** A message that is only a line of text (progress, hints), redacted like any reply. */
export function renderPlain(text: string, redact?: Redactor): SlackMessage {
  return renderSlack({ text }, { redact });
}
