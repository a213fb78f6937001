// Slack mrkdwn text helpers: escaping, link syntax, and cutting text into pieces that fit Block Kit limits.
import { showPeople } from "../../src/reply.ts";

/** Slack reads &, < and > as markup (links, mentions), so plain text must escape them; people become user mentions. */
export function escapeMrkdwn(text: string): string {
  const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return showPeople(escaped, (id) => (/^[UW][A-Z0-9]{2,}$/.test(id) ? `<@${id}>` : id));
}

/** `<url|label>`, or the escaped label alone when the URL is not one Slack should link. */
export function mrkdwnLink(url: string, label: string): string {
  const safeLabel = escapeMrkdwn(label).replace(/\|/g, "¦");
  if (!/^(https?:\/\/|mailto:)/i.test(url)) return `${safeLabel} (${escapeMrkdwn(url)})`;
  // "|" and ">" end the link early; percent-encoding keeps the URL intact.
  const safeUrl = url.replace(/[|<> ]/g, (c) => encodeURIComponent(c)).replace(/&/g, "&amp;");
  return `<${safeUrl}|${safeLabel}>`;
}

/** A cut index at or before `at` that splits neither an &entity; nor a surrogate pair. */
function safeCut(text: string, at: number): number {
  let cut = Math.min(at, text.length);
  const amp = text.lastIndexOf("&", cut - 1);
  if (amp >= 0 && amp > cut - 6 && text.indexOf(";", amp) >= cut) cut = amp;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut > 0 ? cut : Math.min(at, text.length);
}

/** Shorten to at most `max` characters, ending with "…" when something was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, safeCut(text, max - 1))}…`;
}

/** Split into pieces of at most `max` characters, preferring line breaks, then (for prose) spaces, as cut points. */
export function splitText(text: string, max: number, { wordBreaks = true }: { wordBreaks?: boolean } = {}): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = window.lastIndexOf("\n");
    if (cut < max / 2 && wordBreaks) cut = window.lastIndexOf(" ");
    // A cut at a separator drops it; a hard cut keeps every character (indentation in code matters).
    const atSeparator = cut >= max / 2;
    if (!atSeparator) cut = safeCut(rest, max);
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(atSeparator ? cut + 1 : cut);
  }
  if (rest.length > 0 || pieces.length === 0) pieces.push(rest);
  return pieces;
}
