// Where notices for console channels go when no console shows them: appended to a file that `rl-chatops notices` prints.
import { appendFile } from "node:fs/promises";
import { channelLabel } from "../../db/channel-key.ts";
import type { Poster } from "../../src/outbox/poster.ts";
import type { Redactor } from "../../src/redact.ts";
import { redactReply } from "../redact-reply.ts";
import { renderText } from "../render-text.ts";
import { routeMarker } from "../../src/notify/describe-route.ts";

/**
 * A poster for the console platform that appends each notice, under a line with its time and channel, to `file`. The
 * append has reached the file when it resolves, so a notice the outbox marks sent is never only in this process.
 */
export function createNoticesFilePoster(file: string, redact: Redactor, now: () => number): Poster {
  return async (target, reply, delivery) => {
    const text = renderText(redactReply(reply, redact));
    const marker = routeMarker(target.channel, delivery);
    const where = `${channelLabel(target.channel)}${marker ? ` ${marker}` : ""}`;
    await appendFile(file, `--- ${new Date(now()).toISOString()} ${where}\n${text}\n`, {
      mode: 0o600,
    });
    return {};
  };
}
