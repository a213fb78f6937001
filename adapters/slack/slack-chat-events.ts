// Chat mode on Slack: a mention in a channel, or a direct message, goes to the chat handler as plain language.
import type { App } from "@slack/bolt";
import { answerChat, type SlackChatDeps } from "./slack-chat.ts";

export function listenForChat(app: App, chatDeps: SlackChatDeps, track: (work: Promise<void>) => Promise<void>): void {
  app.event("app_mention", async ({ event, body, context }) => {
    if (!event.user || event.bot_id) return;
    await track(
      answerChat(
        {
          channel: { platform: "slack", workspace: teamOf(body, event), channel: event.channel },
          userId: event.user,
          text: event.text,
          thread: event.thread_ts ?? event.ts,
          botUserId: context.botUserId,
        },
        chatDeps,
      ),
    );
  });

  app.event("message", async ({ event, body, context }) => {
    const m = event as {
      channel_type?: string;
      subtype?: string;
      bot_id?: string;
      user?: string;
      text?: string;
      ts: string;
      thread_ts?: string;
      channel: string;
    };
    // Only direct messages: in channels, a message reaches the bot as app_mention.
    if (m.channel_type !== "im" || m.subtype || m.bot_id || !m.user || m.user === context.botUserId) return;
    await track(
      answerChat(
        {
          channel: { platform: "slack", workspace: teamOf(body, event), channel: m.channel },
          userId: m.user,
          text: m.text ?? "",
          thread: m.thread_ts,
          botUserId: context.botUserId,
        },
        chatDeps,
      ),
    );
  });
}

function teamOf(body: unknown, event: unknown): string {
  const fromBody = (body as { team_id?: unknown }).team_id;
  const fromEvent = (event as { team?: unknown }).team;
  return typeof fromBody === "string" ? fromBody : typeof fromEvent === "string" ? fromEvent : "unknown";
}
