// Redacts a reply once, where an adapter turns it into what the platform is sent: every text a person can see.
import type { Redactor } from "../src/redact.ts";
import type { ReplyContent } from "../src/reply.ts";

/** The reply with the bot's secrets taken out of its title, text, fields, blocks, links, buttons, chart title and file. */
export function redactReply<R extends ReplyContent>(reply: R, redact: Redactor): R {
  return mapReplyText(reply, redact);
}

/**
 * The reply with `r` applied to every text a person can see (the title, text, fields, blocks, links, buttons, chart
 * title, the file's title and text).
 */
export function mapReplyText<R extends ReplyContent>(reply: R, r: (text: string) => string): R {
  return {
    ...reply,
    title: reply.title === undefined ? undefined : r(reply.title),
    text: reply.text === undefined ? undefined : r(reply.text),
    fields: reply.fields?.map((f) => ({
      ...f,
      label: r(f.label),
      value: r(f.value),
      ...(f.group !== undefined ? { group: r(f.group) } : {}),
    })),
    blocks: reply.blocks?.map((b) => ({
      ...b,
      content: r(b.content),
      title: b.title === undefined ? undefined : r(b.title),
    })),
    links: reply.links?.map((l) => ({ label: r(l.label), url: r(l.url) })),
    buttons: reply.buttons?.map((b) =>
      b.kind === "command" || b.kind === "confirm"
        ? { ...b, label: r(b.label), command: r(b.command) }
        : { ...b, label: r(b.label) },
    ),
    chart: reply.chart && { ...reply.chart, title: r(reply.chart.title) },
    ...(reply.file ? { file: { ...reply.file, title: r(reply.file.title), text: r(reply.file.text) } } : {}),
  };
}
