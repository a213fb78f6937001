// Sends rendered messages through the Slack Web API and response_url; failures are logged with context and returned, never thrown.
// Messages come from slack-render, which has redacted them (once): nothing here redacts again.
import { webApi, type RespondArguments, type RespondFn } from "@slack/bolt";
import type { Logger } from "../../src/log.ts";
import { slackErrorCode } from "./slack-error-code.ts";
import type { SlackMessage } from "./slack-render.ts";

/** A refusal carries Slack's error code; a 429 (with a WebClient that rejects rate-limited calls) its Retry-After too. */
export type SendResult = { ok: true; ts?: string } | { ok: false; error: string; retryAfterSeconds?: number };

export interface RespondHow {
  /** "ephemeral" (the default) shows the message to the person who acted only. */
  visibility?: "ephemeral" | "in_channel";
  /** Replace the message the response_url belongs to (a prompt) instead of adding one. */
  replace?: boolean;
}

/** A file to share; its title and alt text are redacted already (slack-chart). */
export interface SlackFile {
  data: Buffer;
  filename: string;
  title: string;
  /** For screen readers. */
  altText?: string;
}

/** conversations.open's answer: the DM channel with one person, or Slack's refusal. */
export type OpenDmResult = { ok: true; channel: string } | { ok: false; error: string; retryAfterSeconds?: number };

export interface SlackMessenger {
  /** Opens (or finds) the DM with one person: conversations.open. Needs the im:write scope. */
  openDm(user: string): Promise<OpenDmResult>;
  post(channel: string, message: SlackMessage, thread?: string): Promise<SendResult>;
  update(channel: string, ts: string, message: SlackMessage): Promise<SendResult>;
  remove(channel: string, ts: string): Promise<SendResult>;
  ephemeral(channel: string, user: string, message: SlackMessage, thread?: string): Promise<SendResult>;
  respond(respond: RespondFn | undefined, message: SlackMessage, how?: RespondHow): Promise<SendResult>;
  /** Remove the message a response_url belongs to (a finished prompt). */
  dismiss(respond: RespondFn | undefined): Promise<SendResult>;
  /**
   * Shares a file into a channel or thread: files.getUploadURLExternal, the bytes to its upload_url, then
   * files.completeUploadExternal (the WebClient's uploadV2). Needs the files:write scope.
   */
  upload(channel: string, file: SlackFile, thread?: string): Promise<SendResult>;
}

/** The Retry-After (seconds) of a 429 the WebClient gave back rather than waited out (rejectRateLimitedCalls). */
function retryAfterOf(err: unknown): number | undefined {
  const e = err as { code?: unknown; retryAfter?: unknown } | undefined;
  return e?.code === webApi.ErrorCode.RateLimitedError && typeof e.retryAfter === "number" ? e.retryAfter : undefined;
}

/** Errors where the same message without blocks can still go through. */
const BLOCK_ERRORS = new Set(["invalid_blocks", "invalid_blocks_format", "msg_too_long", "too_many_blocks"]);

export function createSlackMessenger(client: webApi.WebClient, log: Logger): SlackMessenger {
  /** Run a Web API call; on a block-shaped refusal, try once more with the text alone. */
  const attempt = async (
    what: string,
    context: Record<string, unknown>,
    message: SlackMessage,
    call: (m: SlackMessage) => Promise<{ ts?: string; message_ts?: string }>,
  ): Promise<SendResult> => {
    try {
      const res = await call(message);
      return { ok: true, ts: res.ts ?? res.message_ts };
    } catch (err) {
      const error = slackErrorCode(err);
      if (BLOCK_ERRORS.has(error) && message.blocks.length > 0) {
        log.warn(`slack ${what}: blocks refused, sending the text alone`, { ...context, error });
        return attempt(what, context, { text: message.text, blocks: [] }, call);
      }
      const retryAfterSeconds = retryAfterOf(err);
      if (retryAfterSeconds !== undefined) {
        log.warn(`slack ${what}: rate limited`, { ...context, retryAfterSeconds });
        return { ok: false, error, retryAfterSeconds };
      }
      log.error(`slack ${what} failed`, { ...context, error, err });
      return { ok: false, error };
    }
  };

  const respondWith = async (
    respond: RespondFn | undefined,
    args: RespondArguments,
    what: string,
  ): Promise<SendResult> => {
    if (!respond) return { ok: false, error: "no_response_url" };
    try {
      await respond(args);
      return { ok: true };
    } catch (err) {
      const error = slackErrorCode(err);
      log.error(`slack ${what} failed`, { error, err });
      return { ok: false, error };
    }
  };

  return {
    openDm: async (user) => {
      try {
        const res = await client.conversations.open({ users: user });
        const channel = res.channel?.id;
        return channel ? { ok: true, channel } : { ok: false, error: "no_channel" };
      } catch (err) {
        const error = slackErrorCode(err);
        const retryAfterSeconds = retryAfterOf(err);
        log.warn("slack conversations.open failed", { user, error, err });
        return { ok: false, error, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
      }
    },
    post: (channel, message, thread) =>
      attempt("chat.postMessage", { channel, thread }, message, (m) =>
        // No previews: a link in a bot post (WandB, or one an environment's text carries) stays a link.
        client.chat.postMessage({
          channel,
          text: m.text,
          blocks: m.blocks,
          unfurl_links: false,
          unfurl_media: false,
          ...(thread ? { thread_ts: thread } : {}),
        }),
      ),
    update: (channel, ts, message) =>
      attempt("chat.update", { channel, ts }, message, (m) =>
        client.chat.update({ channel, ts, text: m.text, blocks: m.blocks }),
      ),
    remove: async (channel, ts) => {
      try {
        await client.chat.delete({ channel, ts });
        return { ok: true, ts };
      } catch (err) {
        const error = slackErrorCode(err);
        log.warn("slack chat.delete failed", { channel, ts, error, err });
        return { ok: false, error };
      }
    },
    ephemeral: (channel, user, message, thread) =>
      attempt("chat.postEphemeral", { channel, user }, message, (m) =>
        client.chat.postEphemeral({
          channel,
          user,
          text: m.text,
          blocks: m.blocks,
          ...(thread ? { thread_ts: thread } : {}),
        }),
      ),
    respond: (respond, message, how = {}) =>
      respondWith(
        respond,
        {
          text: message.text,
          blocks: message.blocks,
          response_type: how.visibility ?? "ephemeral",
          replace_original: how.replace ?? false,
          unfurl_links: false,
          unfurl_media: false,
        },
        "response_url",
      ),
    dismiss: (respond) => respondWith(respond, { delete_original: true }, "response_url delete"),
    upload: async (channel, file, thread) => {
      const { title } = file;
      try {
        await client.files.uploadV2({
          file: file.data,
          filename: file.filename,
          title,
          ...(file.altText ? { alt_text: file.altText } : {}),
          ...(thread ? { channel_id: channel, thread_ts: thread } : { channel_id: channel }),
        });
        return { ok: true };
      } catch (err) {
        const error = slackErrorCode(err);
        // missing_scope here means the app was installed without files:write: say so, since only a person can fix it.
        const hint =
          error === "missing_scope" ? "add the files:write scope to the Slack app and reinstall it" : undefined;
        log.warn("slack file upload failed", {
          channel,
          thread,
          filename: file.filename,
          error,
          ...(hint ? { hint } : {}),
          err,
        });
        return { ok: false, error };
      }
    },
  };
}
