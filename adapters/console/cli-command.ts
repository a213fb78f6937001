// One rl-chatops exec command, run and rendered the same way whether exec runs it itself or the bot does for it.
import { dispatch } from "../../commands/dispatch.ts";
import type { BotRequest, BotResponse } from "../../src/lease/ask-bot.ts";
import type { Reply } from "../../src/reply.ts";
import { redactDeep } from "../../src/redact.ts";
import type { Services } from "../../src/services.ts";
import { CONSOLE_CHANNEL } from "./console.ts";
import { renderText } from "../render-text.ts";

export const UNSUPERVISED_NOTE =
  "Runs are supervised only while the bot runs: start it with `npm start` (or `rl-chatops`) to follow this run to its end.";

const LIVE_STATUSES = new Set(["queued", "starting", "running"]);

/** The reply started or queued a run that nobody will watch once this process ends. */
export function startedRun(reply: Reply, command: string | undefined): boolean {
  const status = (reply.data as { status?: unknown } | undefined)?.status;
  return typeof status === "string" ? LIVE_STATUSES.has(status) : command === "start" && !reply.error;
}

export interface CliCommandOptions {
  /** Set when no bot runs: a started run gets the note that it is not supervised. */
  unsupervised?: boolean;
}

export async function runCliCommand(
  services: Services,
  request: BotRequest,
  options: CliCommandOptions = {},
): Promise<BotResponse> {
  const channel = request.channel ? { ...CONSOLE_CHANNEL, channel: request.channel } : CONSOLE_CHANNEL;
  const user = request.user ?? "local";
  const { reply, ok, command } = await dispatch(
    { text: request.text },
    { channel, user: { id: user, name: user }, via: "cli", services },
    { confirmed: true },
  );
  const note = options.unsupervised && ok && startedRun(reply, command?.name) ? UNSUPERVISED_NOTE : undefined;
  let rendered: string;
  if (request.json) {
    const out = ok ? (reply.data ?? { title: reply.title, text: reply.text }) : { error: reply.error };
    rendered = JSON.stringify(note ? { ...(out as object), note } : out, null, 2);
  } else {
    rendered = renderText(reply) + (note ? `\n${note}` : "");
  }
  // The command line's output boundary: the text printed and the reply handed back are each redacted once, here.
  return {
    ok,
    ...(reply.error ? { code: reply.error.code } : {}),
    reply: redactDeep(reply, services.redact),
    rendered: services.redact(rendered),
  };
}

/** README's exit codes: 0 done, 1 refused or failed, 2 usage. */
export function exitCodeOf(response: Pick<BotResponse, "ok" | "code">): number {
  if (response.ok) return 0;
  return response.code === "USAGE" ? 2 : 1;
}
