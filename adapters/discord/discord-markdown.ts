// Makes untrusted text inert in Discord embeds: markdown, masked and bare links, mentions and spoilers show as typed.
import { showPeople } from "../../src/reply.ts";

/** Characters Discord's markdown reads anywhere in a line: emphasis, code, spoilers, strikethrough, masked links, mentions, escapes. */
const INLINE = /[\\*_~`|[\]<]/g;
/** Markup that only counts at the start of a line: quotes, headings, lists, subtext. */
const LINE_START = /^(\s*)(>|#|-(?=[\s#])|\d+\.(?=\s))/gm;

/**
 * Plain text as Discord shows it literally. A backslash before a punctuation character is Discord's own escape;
 * "://" is broken the same way so bare URLs are not linked (links appear only where the bot makes them), and
 * @everyone / @here get a zero-width space (they would not ping with allowed_mentions empty, but would still look live).
 */
export function escapeDiscord(text: string): string {
  const escaped = text
    .replace(INLINE, "\\$&")
    .replace(LINE_START, "$1\\$2")
    .replace(/:\/\//g, "\\://")
    .replace(/@(everyone|here)\b/g, "@\u200b$1");
  // People the bot names become user mentions; allowed_mentions is empty, and mentions in embeds never ping.
  return showPeople(escaped, (id) => (/^\d{15,21}$/.test(id) ? `<@${id}>` : id));
}
