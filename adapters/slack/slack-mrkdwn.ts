// Slack mrkdwn text helpers: escaping, link syntax, and cutting text into pieces that fit Block Kit limits.
import { showPeople } from "../../src/reply.ts";
import { safeCut } from "../split-text.ts";

export { splitText } from "../split-text.ts";

/** &, < and > escaped, as Slack asks of any text (they start links and mentions); enough inside a code block. */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A mark that opens *bold*, _italics_, ~strike~ or `code` where a word starts. */
const OPENING_MARK = /(^|[\s([{"'])([*_~`])/g;
/** A quote: ">" (escaped by then) at the start of a line. */
const QUOTE = /^(\s*)&gt;/gm;

/**
 * Plain text as Slack shows it literally, for text that may come from anyone (environment descriptions, log lines):
 * markup escaped, and a zero-width space before each formatting mark that could open a span or a quote, since mrkdwn
 * has no escape character. Links are not made from bare URLs because every text object is sent verbatim
 * (slack-render). A person is never made a <@U…> mention here, since that notifies them: renderSlack has put in their
 * names, and an id left over stays text.
 */
export function escapeMrkdwn(text: string): string {
  const escaped = escapeMarkup(text).replace(OPENING_MARK, "$1\u200b$2").replace(QUOTE, "$1\u200b&gt;");
  return showPeople(escaped, (id) => id);
}

/** `<url|label>`, or the escaped label alone when the URL is not one Slack should link. */
export function mrkdwnLink(url: string, label: string): string {
  const safeLabel = escapeMrkdwn(label).replace(/\|/g, "¦");
  if (!/^(https?:\/\/|mailto:)/i.test(url)) return `${safeLabel} (${escapeMrkdwn(url)})`;
  // "|" and ">" end the link early; percent-encoding keeps the URL intact.
  const safeUrl = url.replace(/[|<> ]/g, (c) => encodeURIComponent(c)).replace(/&/g, "&amp;");
  return `<${safeUrl}|${safeLabel}>`;
}

/** Shorten to at most `max` characters, ending with "…" when something was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, safeCut(text, max - 1))}…`;
}
