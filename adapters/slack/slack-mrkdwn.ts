// Slack mrkdwn text helpers: escaping, link syntax, and cutting text into pieces that fit Block Kit limits.
import { showPeople } from "../../src/reply.ts";
import { safeCut } from "../split-text.ts";

export { splitText } from "../split-text.ts";

/**
 * Slack reads &, < and > as markup (links, mentions), so plain text must escape them. A person is never made a
 * <@U…> mention here, since that notifies them: renderSlack has put in their names, and an id left over stays text.
 */
export function escapeMrkdwn(text: string): string {
  const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
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
