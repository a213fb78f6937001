// The whole text a reply cuts short, attached to its message as a plain-text file (shown by Discord as typed).
import type { ReplyFile } from "../../src/reply.ts";
import type { DiscordMessage } from "./discord-render.ts";

/** The message with the file's text attached after any other file (the chart's PNG), or unchanged when there is none. */
export function attachFile(
  message: DiscordMessage,
  file: ReplyFile | undefined,
  redact: (text: string) => string,
): DiscordMessage {
  if (!file) return message;
  const text = {
    name: file.name,
    data: Buffer.from(redact(file.text), "utf8"),
    contentType: "text/plain; charset=utf-8",
  };
  return { ...message, files: [...(message.files ?? []), text] };
}
