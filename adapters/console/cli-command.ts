// One rl-chatops exec command, run and rendered by the bot (or the background supervisor) that owns the data folder.
import { dispatch } from "../../commands/dispatch.ts";
import type { BotRequest, BotResponse } from "../../src/lease/ask-bot.ts";
import { redactDeep } from "../../src/redact.ts";
import { stringifyReplyJson } from "../../src/values/reply-json.ts";
import type { Services } from "../../src/services.ts";
import { CONSOLE_CHANNEL } from "./console.ts";
import { localPerson } from "../../src/local-people.ts";
import { renderText } from "../render-text.ts";

export async function runCliCommand(services: Services, request: BotRequest): Promise<BotResponse> {
  const channel = request.channel ? { ...CONSOLE_CHANNEL, channel: request.channel } : CONSOLE_CHANNEL;
  // The machine's user running exec, unless the settings let them name another person.
  const who = localPerson(services.config.localPeople, request.user);
  const { reply, ok, replayed } =
    "refused" in who
      ? { reply: { error: { code: "FORBIDDEN", message: who.refused } }, ok: false, replayed: false }
      : await dispatch(
          { text: request.text },
          { channel, user: { id: who.person, name: who.person }, via: "cli", services },
          { confirmed: true, ...(request.id !== undefined ? { requestId: request.id } : {}) },
        );
  const rendered = request.json
    ? stringifyReplyJson(ok ? (reply.data ?? { title: reply.title, text: reply.text }) : { error: reply.error }, 2)
    : renderText(reply);
  // The command line's output boundary: the text printed and the reply handed back are each redacted once, here.
  return {
    ok,
    ...(reply.error ? { code: reply.error.code } : {}),
    ...(replayed ? { replayed } : {}),
    reply: redactDeep(reply, services.redact),
    rendered: services.redact(rendered),
  };
}
