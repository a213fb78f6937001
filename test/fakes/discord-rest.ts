// The fake Discord REST API (/v10/...): gateway info, commands, interaction callbacks, webhooks, channel messages, file uploads.
import type { IncomingMessage, ServerResponse } from "node:http";
import { attachmentsOf, parseMultipart, resolveEmbedImages, type RecordedFile } from "./discord-attachments.ts";
import {
  BOT_USER,
  IDS,
  messageJson,
  nextSnowflake,
  threadJson,
  userJson,
  type FakeUser,
  type FakeWorld,
  type Json,
} from "./discord-payloads.ts";
import { validateChoices, validateCommands, validateMessageBody } from "./discord-validate.ts";
import { readBytes } from "./http-helpers.ts";

export interface RecordedCall {
  method: string;
  /** The path after /v10, decoded ("/webhooks/1/tok/messages/@original"). */
  path: string;
  /** The path as sent ("/v10/webhooks/1/tok/messages/%40original"). */
  rawPath: string;
  query: Record<string, string>;
  /** JSON bodies parsed; for multipart/form-data, the parsed payload_json. */
  body: unknown;
  /** The files[n] parts of a multipart/form-data body ([] for JSON bodies). */
  files: RecordedFile[];
  status: number;
  /** What the fake answered (for 4xx, Discord's error object). */
  response: unknown;
}

export interface RestFault {
  method?: string;
  path: RegExp;
  /** 429 answers with retry_after and Discord's rate-limit headers; other statuses with an error body. */
  status: number;
  /** Seconds, for 429. */
  retryAfter?: number;
  /** How many matching requests fail before the route answers normally again. */
  times: number;
}

export interface InteractionRecord {
  id: string;
  token: string;
  type: number;
  channelId: string;
  guildId?: string;
  user: FakeUser;
  /** For component interactions: the message the button is on. */
  componentMessageId?: string;
  /** The message @original names once a callback created (or chose) it. */
  originalId?: string;
  acknowledged: boolean;
}

export interface FakeRestState {
  calls: RecordedCall[];
  faults: RestFault[];
  messages: Map<string, Json>;
  interactions: Map<string, InteractionRecord>;
  /** "global" or a guild id -> the command JSON the bot registered (bulk overwrite replaces, POST adds). */
  commands: Map<string, Json[]>;
  /** Channel and thread objects GET /channels/:id answers; posting elsewhere is "Unknown Channel". */
  channels: Map<string, Json>;
  /**
   * Channels the bot lost its permissions in: "access" (it cannot see the channel: 50001 Missing Access, for reads too)
   * or "send" (it sees it but may not post: 50013 Missing Permissions).
   */
  denied: Map<string, "access" | "send">;
  /** Messages created with enforce_nonce, by "channel:author:nonce", with when. */
  nonces: Map<string, { messageId: string; at: number }>;
  /** People who turned off DMs from server members: a post to their DM channel is 50007. */
  dmsOff: Set<string>;
  /** DM channel ids by recipient, as POST /users/@me/channels opened them. */
  dms: Map<string, string>;
}

/**
 * How long Discord remembers an enforced nonce. Its documentation says "the past few minutes"; the fake keeps the
 * low end, so a test that relies on it does not pass here on a window Discord would not give.
 */
export const NONCE_WINDOW_MS = 2 * 60_000;

export interface FakeRestOptions {
  world: FakeWorld;
  token: string;
  applicationId: string;
  gatewayUrl: () => string;
  onCall: (call: RecordedCall) => void;
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const MAX_BODY = 10 * 1024 * 1024;
/** MessageFlags.Ephemeral: shown only to the person whose interaction it answers. */
export const EPHEMERAL = 64;

async function parseBody(
  bytes: Buffer,
  contentType: string | undefined,
): Promise<{ body: unknown; files: RecordedFile[] }> {
  if (bytes.length === 0) return { body: undefined, files: [] };
  if (contentType?.includes("multipart/form-data")) return parseMultipart(bytes, contentType);
  const text = bytes.toString("utf8");
  if (contentType?.includes("application/json")) {
    try {
      return { body: JSON.parse(text) as unknown, files: [] };
    } catch {
      return { body: text, files: [] };
    }
  }
  return { body: text, files: [] };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const error = (status: number, code: number, message: string, extra: Json = {}): Answer => ({
  status,
  body: { message, code, ...extra },
});
const invalidForm = (problems: string[]): Answer =>
  error(400, 50035, "Invalid Form Body", {
    errors: { _errors: problems.map((p) => ({ code: "INVALID", message: p })) },
  });

export function createFakeRest(options: FakeRestOptions) {
  const { world, token, applicationId } = options;
  const state: FakeRestState = {
    calls: [],
    faults: [],
    messages: new Map(),
    interactions: new Map(),
    commands: new Map(),
    channels: new Map([...world.channels, ...world.threads].map((c) => [String(c["id"]), c])),
    denied: new Map(),
    nonces: new Map(),
    dmsOff: new Set(),
    dms: new Map(),
  };
  const commandIds = new Map<string, string>();

  const withIds = (list: Json[], guildId?: string): Json[] =>
    list.map((c) => {
      const key = `${guildId ?? "global"}:${String(c["name"])}`;
      const id = commandIds.get(key) ?? nextSnowflake();
      commandIds.set(key, id);
      return {
        id,
        application_id: applicationId,
        version: nextSnowflake(),
        type: 1,
        default_member_permissions: null,
        nsfw: false,
        integration_types: [0],
        name_localizations: null,
        description_localizations: null,
        ...c,
        ...(guildId ? { guild_id: guildId } : {}),
      };
    });

  const createMessage = (
    channelId: string,
    body: Record<string, unknown>,
    extra: { flags?: number; interaction?: InteractionRecord; files?: readonly RecordedFile[] } = {},
  ): Json => {
    const id = nextSnowflake();
    const attachments = attachmentsOf(extra.files ?? [], channelId);
    const message = messageJson(id, {
      channelId,
      guildId: state.channels.get(channelId)?.["guild_id"] as string | undefined,
      author: BOT_USER,
      content: typeof body["content"] === "string" ? body["content"] : "",
      embeds: Array.isArray(body["embeds"]) ? (resolveEmbedImages(body["embeds"], attachments) as unknown[]) : [],
      attachments,
      components: Array.isArray(body["components"]) ? body["components"] : [],
      flags: extra.flags ?? (typeof body["flags"] === "number" ? body["flags"] : 0),
      messageReference: body["message_reference"],
      ...(extra.interaction
        ? {
            webhookId: applicationId,
            applicationId,
            interactionMetadata: {
              id: extra.interaction.id,
              type: extra.interaction.type,
              user: userJson(extra.interaction.user),
              authorizing_integration_owners: {},
            },
          }
        : {}),
    });
    if (body["nonce"] !== undefined) message["nonce"] = body["nonce"];
    state.messages.set(id, message);
    return message;
  };

  /**
   * POST /channels/:id/messages. Discord's rule: with enforce_nonce true and a nonce, a message the same author
   * created in the same channel with the same nonce in the past few minutes is returned, and none is created.
   */
  const createChannelMessage = (
    channelId: string,
    body: Record<string, unknown>,
    files: readonly RecordedFile[],
  ): Answer => {
    const nonce = body["nonce"];
    const key =
      body["enforce_nonce"] === true && nonce !== undefined
        ? `${channelId}:${BOT_USER.id}:${String(nonce)}`
        : undefined;
    const seen = key ? state.nonces.get(key) : undefined;
    const earlier = seen && Date.now() - seen.at < NONCE_WINDOW_MS ? state.messages.get(seen.messageId) : undefined;
    if (earlier) return { status: 200, body: earlier };
    const message = createMessage(channelId, body, { files });
    if (key) state.nonces.set(key, { messageId: String(message["id"]), at: Date.now() });
    return { status: 200, body: message };
  };

  const editMessage = (message: Json, body: Record<string, unknown>, files: readonly RecordedFile[] = []): Answer => {
    const problems = validateMessageBody(body, { create: false });
    if (problems.length) return invalidForm(problems);
    // Discord keeps the attachments an edit lists by id (all of them when it lists none) and adds the new uploads.
    const existing = Array.isArray(message["attachments"]) ? (message["attachments"] as Json[]) : [];
    const listed = Array.isArray(body["attachments"])
      ? new Set((body["attachments"] as Json[]).map((a) => String(a["id"])))
      : undefined;
    const kept = listed ? existing.filter((a) => listed.has(String(a["id"]))) : existing;
    message["attachments"] = [...kept, ...attachmentsOf(files, String(message["channel_id"]))];
    for (const key of ["content", "embeds", "components"] as const)
      if (body[key] !== undefined) message[key] = body[key];
    message["embeds"] = resolveEmbedImages(message["embeds"], message["attachments"] as Json[]);
    // An edit clears the "thinking..." state of a deferred reply.
    message["flags"] = (Number(message["flags"]) & ~128) >>> 0;
    message["edited_timestamp"] = new Date().toISOString();
    const attached = Array.isArray(message["attachments"]) ? message["attachments"].length : 0;
    if (validateMessageBody(message, { files: attached }).length)
      return error(400, 50006, "Cannot send an empty message");
    return { status: 200, body: message };
  };

  /**
   * POST /channels/:id/messages/:id/threads, with Discord's rules: only in a text or announcement channel, a message
   * has at most one thread (160004), its name is 1-100 characters, and the thread's id is the message's id. The
   * starter message then carries the thread (its `thread` field and the HAS_THREAD flag).
   */
  const startThread = (channel: Json, messageId: string, body: unknown): Answer => {
    const channelId = String(channel["id"]);
    if (channel["type"] !== 0 && channel["type"] !== 5)
      return error(400, 50024, "Cannot execute action on this channel type");
    const message = state.messages.get(messageId);
    if (!message || message["channel_id"] !== channelId || (Number(message["flags"]) & 64) !== 0)
      return error(404, 10008, "Unknown Message");
    if (message["thread"] !== undefined)
      return error(400, 160004, "A thread has already been created for this message");
    const fields = isRecord(body) ? body : {};
    const name = fields["name"];
    const problems: string[] = [];
    if (typeof name !== "string" || name.trim().length < 1 || name.length > 100)
      problems.push("name: Must be between 1 and 100 in length.");
    const archive = fields["auto_archive_duration"];
    if (archive !== undefined && ![60, 1440, 4320, 10080].includes(archive as number))
      problems.push("auto_archive_duration: Value must be one of {60, 1440, 4320, 10080}.");
    if (problems.length) return invalidForm(problems);
    const thread = threadJson(messageId, String(name), channelId, String(channel["guild_id"] ?? IDS.guild));
    thread["owner_id"] = BOT_USER.id;
    if (typeof archive === "number") (thread["thread_metadata"] as Json)["auto_archive_duration"] = archive;
    state.channels.set(messageId, thread);
    message["thread"] = thread;
    message["flags"] = (Number(message["flags"]) | 32) >>> 0;
    return { status: 201, body: thread };
  };

  const callback = (
    interactionId: string,
    interactionToken: string,
    body: unknown,
    withResponse: boolean,
    files: readonly RecordedFile[],
  ): Answer => {
    const rec = state.interactions.get(interactionToken);
    if (!rec || rec.id !== interactionId) return error(404, 10062, "Unknown interaction");
    if (rec.acknowledged) return error(400, 40060, "Interaction has already been acknowledged.");
    if (!isRecord(body) || typeof body["type"] !== "number") return invalidForm(["type: required"]);
    const data = isRecord(body["data"]) ? body["data"] : {};
    let message: Json | undefined;
    switch (body["type"]) {
      case 4: {
        const problems = validateMessageBody(data, { files: files.length });
        if (problems.length) return invalidForm(problems);
        message = createMessage(rec.channelId, data, { interaction: rec, files });
        break;
      }
      case 5:
        message = createMessage(
          rec.channelId,
          {},
          { flags: ((typeof data["flags"] === "number" ? data["flags"] : 0) | 128) >>> 0, interaction: rec },
        );
        break;
      case 6:
      case 7: {
        message = rec.componentMessageId ? state.messages.get(rec.componentMessageId) : undefined;
        if (!message)
          return error(400, 50035, "Invalid Form Body", { errors: { type: "update needs a component interaction" } });
        if (body["type"] === 7) {
          const edited = editMessage(message, data, files);
          if (edited.status !== 200) return edited;
        }
        break;
      }
      case 8: {
        const problems = validateChoices(data["choices"]);
        if (problems.length) return invalidForm(problems);
        break;
      }
      default:
        break;
    }
    rec.acknowledged = true;
    if (message) rec.originalId = String(message["id"]);
    if (!withResponse) return { status: 204 };
    const flags = Number(message?.["flags"] ?? 0);
    return {
      status: 200,
      body: {
        interaction: {
          id: rec.id,
          type: rec.type,
          response_message_id: message?.["id"],
          response_message_loading: (flags & 128) !== 0,
          response_message_ephemeral: (flags & 64) !== 0,
        },
        resource: message ? { type: body["type"], message } : { type: body["type"] },
      },
    };
  };

  /** POST /users/@me/channels: the DM channel with recipient_id, the same one each time; 10013 for no such user. */
  const openDm = (body: unknown): Answer => {
    const recipientId = isRecord(body) ? body["recipient_id"] : undefined;
    if (typeof recipientId !== "string") return invalidForm(["recipient_id: required"]);
    const user = world.users.find((u) => u.id === recipientId);
    if (!user) return error(404, 10013, "Unknown User");
    let id = state.dms.get(user.id);
    if (!id) {
      id = nextSnowflake();
      state.dms.set(user.id, id);
      state.channels.set(id, { id, type: 1, last_message_id: null, flags: 0, recipients: [userJson(user)] });
    }
    return { status: 200, body: state.channels.get(id) };
  };

  const webhookMessage = (appId: string, interactionToken: string, messageId: string): Json | undefined => {
    const rec = state.interactions.get(interactionToken);
    if (!rec || appId !== applicationId) return undefined;
    const id = messageId === "@original" ? rec.originalId : messageId;
    return id ? state.messages.get(id) : undefined;
  };

  const route = (
    method: string,
    parts: string[],
    query: Record<string, string>,
    body: unknown,
    files: readonly RecordedFile[],
    authed: boolean,
  ): Answer => {
    const [a, b, c, d, e] = parts;
    const needAuth = (): Answer | undefined => (authed ? undefined : error(401, 0, "401: Unauthorized"));
    if (a === "gateway" && b === "bot" && method === "GET") {
      return (
        needAuth() ?? {
          status: 200,
          body: {
            url: options.gatewayUrl(),
            shards: 1,
            session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
          },
        }
      );
    }
    if (a === "gateway" && b === undefined && method === "GET")
      return { status: 200, body: { url: options.gatewayUrl() } };
    if (a === "users" && b === "@me" && c === undefined && method === "GET")
      return needAuth() ?? { status: 200, body: userJson(BOT_USER) };
    if (a === "users" && b === "@me" && c === "channels" && method === "POST") return needAuth() ?? openDm(body);
    if (a === "applications" && b === applicationId && (c === "commands" || (c === "guilds" && e === "commands"))) {
      const denied = needAuth();
      if (denied) return denied;
      const guildId = c === "guilds" ? d : undefined;
      const key = guildId ?? "global";
      if (method === "GET") return { status: 200, body: state.commands.get(key) ?? [] };
      const list = method === "PUT" ? body : [body];
      const problems = validateCommands(list);
      if (problems.length) return invalidForm(problems);
      const stored = withIds(list as Json[], guildId);
      if (method === "PUT") state.commands.set(key, stored);
      else
        state.commands.set(key, [
          ...(state.commands.get(key) ?? []).filter((x) => x["name"] !== stored[0]?.["name"]),
          ...stored,
        ]);
      return { status: method === "PUT" ? 200 : 201, body: method === "PUT" ? stored : stored[0] };
    }
    if (a === "interactions" && b && c && d === "callback" && method === "POST")
      return callback(b, c, body, query["with_response"] === "true", files);
    if (a === "webhooks" && b && c) {
      if (d === undefined && method === "POST") {
        const rec = state.interactions.get(c);
        if (!rec || b !== applicationId) return error(404, 10015, "Unknown Webhook");
        if (!rec.acknowledged) return error(400, 40060, "Interaction has not been acknowledged.");
        const problems = validateMessageBody(body, { files: files.length });
        if (problems.length) return invalidForm(problems);
        return {
          status: 200,
          body: createMessage(rec.channelId, body as Record<string, unknown>, { interaction: rec, files }),
        };
      }
      if (d === "messages" && e) {
        const message = webhookMessage(b, c, e);
        if (!message) return error(404, 10008, "Unknown Message");
        if (method === "GET") return { status: 200, body: message };
        if (method === "PATCH") return editMessage(message, isRecord(body) ? body : {}, files);
        if (method === "DELETE") {
          state.messages.delete(String(message["id"]));
          return { status: 204 };
        }
      }
    }
    if (a === "channels" && b) {
      const denied = needAuth();
      if (denied) return denied;
      const channel = state.channels.get(b);
      if (!channel) return error(404, 10003, "Unknown Channel");
      const lost = state.denied.get(b);
      if (lost === "access") return error(403, 50001, "Missing Access");
      if (c === undefined && method === "GET") return { status: 200, body: channel };
      if (c === "typing" && method === "POST") return { status: 204 };
      if (c === "messages" && d === undefined && method === "POST") {
        if (lost === "send") return error(403, 50013, "Missing Permissions");
        // A DM to a bot, or to someone who allows no DMs from server members, is refused when posted, not when opened.
        const recipient = (channel["recipients"] as Json[] | undefined)?.[0];
        const to = world.users.find((u) => u.id === recipient?.["id"]);
        if (to && (to.bot || state.dmsOff.has(to.id))) return error(403, 50007, "Cannot send messages to this user");
        const problems = validateMessageBody(body, { files: files.length });
        if (problems.length) return invalidForm(problems);
        return createChannelMessage(b, body as Record<string, unknown>, files);
      }
      if (c === "messages" && d && e === "threads" && method === "POST") {
        if (lost === "send") return error(403, 50013, "Missing Permissions");
        return startThread(channel, d, body);
      }
      if (c === "messages" && d === undefined && method === "GET") {
        // The channel as everyone sees it, newest first: an ephemeral message (flag 64) is its person's alone.
        const shown = [...state.messages.values()]
          .filter((m) => m["channel_id"] === b && (Number(m["flags"] ?? 0) & EPHEMERAL) === 0)
          .reverse();
        return { status: 200, body: shown.slice(0, Math.min(Number(query["limit"] ?? 50), 100)) };
      }
      if (c === "messages" && d && e === undefined && (method === "GET" || method === "PATCH")) {
        const message = state.messages.get(d);
        // An ephemeral message exists only for its interaction: only its webhook (the interaction token) reaches it.
        if (!message || message["channel_id"] !== b || (Number(message["flags"] ?? 0) & EPHEMERAL) !== 0)
          return error(404, 10008, "Unknown Message");
        if (method === "GET") return { status: 200, body: message };
        // A bot edits only its own messages.
        if ((message["author"] as { id?: unknown } | undefined)?.id !== BOT_USER.id)
          return error(403, 50005, "Cannot edit a message authored by another user");
        const problems = validateMessageBody(body, { files: files.length });
        if (problems.length) return invalidForm(problems);
        return editMessage(message, isRecord(body) ? body : {}, files);
      }
    }
    return error(404, 0, "404: Not Found");
  };

  const faultFor = (method: string, path: string): Answer | undefined => {
    const fault = state.faults.find((x) => x.times > 0 && (!x.method || x.method === method) && x.path.test(path));
    if (!fault) return undefined;
    fault.times--;
    if (fault.status !== 429) return error(fault.status, 0, `${fault.status}: fake failure`);
    const retryAfter = fault.retryAfter ?? 0.05;
    return {
      status: 429,
      body: { message: "You are being rate limited.", retry_after: retryAfter, global: false },
      headers: {
        "retry-after": String(retryAfter),
        "x-ratelimit-limit": "5",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Date.now() / 1000 + retryAfter),
        "x-ratelimit-reset-after": String(retryAfter),
        "x-ratelimit-bucket": "fakebucket0123456789",
        "x-ratelimit-scope": "user",
      },
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    let answer: Answer;
    let body: unknown;
    let files: RecordedFile[] = [];
    let path = url.pathname;
    try {
      ({ body, files } = await parseBody(await readBytes(req, MAX_BODY), req.headers["content-type"]));
      if (!path.startsWith("/v10/")) answer = error(404, 0, "404: Not Found (the fake serves /v10 only)");
      else {
        path = decodeURIComponent(path.slice(4));
        const parts = path.split("/").filter(Boolean);
        const query = Object.fromEntries(url.searchParams);
        answer =
          faultFor(method, path) ??
          route(method, parts, query, body, files, req.headers.authorization === `Bot ${token}`);
      }
    } catch (err) {
      answer = error(500, 0, `fake failure: ${(err as Error).message}`);
    }
    const call: RecordedCall = {
      method,
      path,
      rawPath: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      files,
      status: answer.status,
      response: answer.body,
    };
    state.calls.push(call);
    const payload = answer.body === undefined ? "" : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      ...(payload ? { "content-type": "application/json" } : {}),
      ...(answer.headers ?? {}),
    });
    res.end(payload);
    options.onCall(call);
  };

  return { state, handle, createMessage };
}

export type FakeRest = ReturnType<typeof createFakeRest>;
