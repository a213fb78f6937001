// A click on one of the bot's buttons: turn a page, answer a confirmation prompt, or run the command the button
// stands for, as the person who clicked (a second click while the first runs is dropped, not run twice).
import type { RespondFn, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ClickedMessage } from "./slack-closed-prompt.ts";
import { decodeButtonValue } from "./slack-button-value.ts";
import { turnSlackPage } from "./slack-page.ts";
import { shareSlackAnswer } from "./slack-share.ts";
import { renderPlain } from "./slack-render.ts";
import { answerSlackPrompt, runSlackCommand, type SlackCommandDeps } from "./slack-run-command.ts";

export type ClickHandler = (
  body: SlackActionMiddlewareArgs["body"],
  action: SlackActionMiddlewareArgs["action"],
  respond: RespondFn,
) => Promise<void>;

export function createClickHandler(
  deps: SlackCommandDeps & { people: NonNullable<SlackCommandDeps["people"]> },
  track: (work: Promise<void>) => Promise<void>,
): ClickHandler {
  const { services, messenger, people } = deps;
  const { log } = services;
  const clicking = new Set<string>();
  return async function answerClick(
    body: SlackActionMiddlewareArgs["body"],
    action: SlackActionMiddlewareArgs["action"],
    respond: RespondFn,
  ): Promise<void> {
    if (body.type !== "block_actions" || action.type !== "button" || !("action_id" in action)) return;
    const value = decodeButtonValue(action.value);
    if (!value) {
      log.warn("slack: a button with an unknown value was clicked", { actionId: action.action_id });
      await messenger.respond(
        respond,
        renderPlain("That button is not one I know (it may be from an older version). Type the command instead."),
      );
      return;
    }
    const channelId = body.channel?.id ?? body.container?.channel_id;
    if (!channelId) return;
    const channel: ChannelKey = {
      platform: "slack",
      workspace: body.team?.id ?? body.user.team_id ?? "unknown",
      channel: channelId,
    };
    const user = await people.named({ id: body.user.id, name: body.user.username ?? body.user.name });
    if (value.kind === "page") {
      const ephemeral = body.container?.is_ephemeral === true;
      const messageTs = body.container?.message_ts ?? body.message?.ts;
      await track(
        turnSlackPage(
          { id: value.id, index: value.index, channel, ephemeral, respond, ...(messageTs ? { messageTs } : {}) },
          { services, messenger, people },
        ),
      );
      return;
    }
    if (value.kind === "share") {
      const thread: unknown = body.container?.thread_ts;
      await track(
        shareSlackAnswer(
          {
            id: value.id,
            index: value.index,
            channel,
            user,
            respond,
            ...(typeof thread === "string" ? { thread } : {}),
          },
          { services, messenger, people },
        ),
      );
      return;
    }
    if (value.kind === "answer") {
      const prompt = publicPrompt(body);
      // Every click is answered, a replay too: the prompt's record decides, once, whether anything runs.
      await track(
        answerSlackPrompt(
          { confirmation: value.confirmation, answer: value.answer },
          {
            channel,
            user,
            kind: "confirm",
            respond,
            fromEphemeral: body.container?.is_ephemeral === true,
            ...(prompt ? { prompt } : {}),
          },
          deps,
        ),
      );
      return;
    }
    // A second click while the first is still running would run the command twice.
    const key = `${body.container?.message_ts ?? ""}:${action.action_id}:${body.user.id}`;
    if (clicking.has(key)) return;
    clicking.add(key);
    try {
      // A button on a private answer (a list's Older page) answers in its place.
      const fromEphemeral = body.container?.is_ephemeral === true;
      await track(runSlackCommand(value.command, { channel, user, kind: "button", respond, fromEphemeral }, deps));
    } finally {
      clicking.delete(key);
    }
  };
}

/** The clicked message when it is a public one (a chat answer's prompt), with the thread it is in. */
function publicPrompt(body: SlackActionMiddlewareArgs["body"]): ClickedMessage | undefined {
  if (body.type !== "block_actions" || body.container?.is_ephemeral === true || !body.message) return undefined;
  const { ts, text, blocks, thread_ts } = body.message as {
    ts: string;
    text?: string;
    blocks?: unknown;
    thread_ts?: unknown;
  };
  const inContainer: unknown = body.container?.thread_ts;
  const thread = typeof thread_ts === "string" ? thread_ts : typeof inContainer === "string" ? inContainer : undefined;
  // A thread's parent carries thread_ts equal to its own ts: what follows goes under it, where the conversation is.
  return { ts, ...(text ? { text } : {}), ...(blocks ? { blocks } : {}), ...(thread ? { thread } : {}) };
}
