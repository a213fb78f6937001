// Shares the whole text a reply cuts short as a plain-text snippet in its answer's thread (files.uploadV2's three calls).
import type { Logger } from "../../src/log.ts";
import type { Redactor } from "../../src/redact.ts";
import type { ReplyFile } from "../../src/reply.ts";
import type { SlackMessenger } from "./slack-messenger.ts";

export interface SlackFileDeps {
  messenger: SlackMessenger;
  redact: Redactor;
  log: Logger;
}

/**
 * Uploads the file's text under the answer (`thread`: the answer's own ts, or the conversation it is in). Never throws:
 * the answer is already out with its texts cut and the console's way to see them whole, so a failure is only logged
 * (the messenger logs it, with the files:write hint).
 */
export async function shareFile(
  file: ReplyFile | undefined,
  where: { channel: string; thread: string },
  deps: SlackFileDeps,
): Promise<boolean> {
  if (!file) return false;
  // A file's text is only ever shown as typed: no mrkdwn, mention or link in it is read by Slack.
  const sent = await deps.messenger.upload(
    where.channel,
    { data: Buffer.from(deps.redact(file.text), "utf8"), filename: file.name, title: deps.redact(file.title) },
    where.thread,
  );
  return sent.ok;
}
