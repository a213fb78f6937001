// The words of /rl notify: kinds and destinations as people type them, and how a destination is said back.
import { NOTICE_KINDS, type Destination, type NoticeKind } from "../../db/notify-settings.ts";
import { RlError } from "../errors.ts";

export const DESTINATION_FORMS = "thread, channel, #channel (or a channel mention), dm or off";

const KIND_ALIASES: Record<string, NoticeKind> = {
  start: "started",
  starts: "started",
  fail: "failed",
  failure: "failed",
  failures: "failed",
  complete: "completed",
  completion: "completed",
  stop: "stopped",
  stops: "stopped",
  alert: "alerts",
  digest: "digests",
  checkpoints: "checkpoint",
};

/** "failed,completed" or "all" -> the kinds; anything else is refused with the kinds there are. */
export function parseNoticeKinds(text: string): NoticeKind[] {
  const words = text
    .toLowerCase()
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);
  if (words.length === 1 && words[0] === "all") return [...NOTICE_KINDS];
  const kinds = words.map((w) => {
    const kind = (NOTICE_KINDS as readonly string[]).includes(w) ? (w as NoticeKind) : KIND_ALIASES[w];
    if (!kind)
      throw new RlError(
        "USAGE",
        `"${w.slice(0, 40)}" is not a kind of notice: use ${NOTICE_KINDS.join(", ")} (comma-separated), or all.`,
      );
    return kind;
  });
  if (kinds.length === 0) throw new RlError("USAGE", `Say which notices: ${NOTICE_KINDS.join(", ")}, or all.`);
  return [...new Set(kinds)];
}

/** A destination as typed: a word, "#name", or a Slack (<#C123|name>) or Discord (<#123>) channel mention. */
export function parseDestination(text: string): Destination {
  const word = text.trim();
  const lower = word.toLowerCase();
  if (lower === "thread" || lower === "channel" || lower === "dm" || lower === "off" || lower === "digest")
    return { to: lower };
  const mention = /^<#([A-Za-z0-9]+)(\|[^>]*)?>$/.exec(word);
  if (mention) return { to: "named", channel: mention[1]! };
  if (/^#[-_.A-Za-z0-9]{1,80}$/.test(word)) return { to: "named", channel: word.slice(1) };
  throw new RlError("USAGE", `"${word.slice(0, 40)}" is not a destination: use ${DESTINATION_FORMS}.`);
}

/** How a destination is said: "the run's thread", "a DM to whoever started the run", "#alerts". */
export function describeDestination(d: Destination): string {
  switch (d.to) {
    case "thread":
      return "the run's thread";
    case "channel":
      return "the channel (outside the run's thread)";
    case "named":
      return `#${d.channel}`;
    case "dm":
      return "a DM to whoever started the run";
    case "off":
      return "nowhere (off)";
    case "digest":
      return "the next digest";
  }
}

/** A destination as data (--json): "thread", "channel", "#alerts", "dm", "off", "digest". */
export function destinationWord(d: Destination): string {
  return d.to === "named" ? `#${d.channel}` : d.to;
}
