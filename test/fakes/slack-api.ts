// A local fake Slack Web API on 127.0.0.1: records every call, keeps posted messages, serves response_urls, file uploads and Socket Mode.
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { blockKitProblems } from "./slack-block-kit.ts";
import { Recorder } from "./slack-recorder.ts";
import { attachFakeSocketMode, type FakeSocketMode } from "./slack-socket.ts";
import { readBody, readBytes } from "./http-helpers.ts";

export interface RecordedCall {
  method: string;
  /** The parameters, whether sent form-encoded (JSON-valued fields parsed) or as JSON. */
  body: Record<string, unknown>;
  token?: string;
  /** When it came (ms since the epoch). */
  at: number;
  /** What the fake answered: HTTP status and Slack's ok/error. */
  status: number;
  ok: boolean;
  error?: string;
}

export interface RecordedResponse {
  /** The <id> of /response/<id>. */
  id: string;
  body: Record<string, unknown>;
}

export interface FakeMessage {
  channel: string;
  ts: string;
  text?: string;
  blocks?: unknown;
  thread_ts?: string;
  deleted?: boolean;
}

/** A message shown to one person only (response_url ephemeral, chat.postEphemeral): never in conversations.history. */
export interface FakeEphemeral {
  channel: string;
  /** Who sees it; undefined when the response_url was made without saying whose it is. */
  user?: string;
  ts: string;
  text?: string;
  blocks?: unknown;
  via: "response_url" | "chat.postEphemeral";
  deleted?: boolean;
}

/** Whose response_url it is: the slash command's or the clicked message's (Slack binds it to both). */
export interface ResponseUrlFor {
  channel?: string;
  user?: string;
  /** The clicked message, which replace_original and delete_original act on. */
  messageTs?: string;
}

/** A file shared through files.getUploadURLExternal -> POST upload_url -> files.completeUploadExternal. */
export interface FakeUpload {
  fileId: string;
  filename: string;
  /** The `length` given to files.getUploadURLExternal. */
  declaredLength: number;
  altText?: string;
  /** The bytes POSTed to the upload_url (raw, or the file part of a multipart form). */
  bytes: Buffer;
  /** The bytes start with the PNG signature. */
  isPng: boolean;
  title?: string;
  /** Where files.completeUploadExternal shared it (undefined: kept private). */
  channel?: string;
  thread_ts?: string;
  initial_comment?: string;
}

/** 429 with Retry-After (seconds), a Slack error answered with ok:false, or a bare HTTP status. */
export type SlackFault = { status: 429; retryAfter: number } | { error: string } | { status: number };

export interface FakeSlackOptions {
  botToken?: string;
  appToken?: string;
  teamId?: string;
  botUserId?: string;
  botId?: string;
}

export interface FakeSlack {
  /** Give this as SLACK_API_URL: http://127.0.0.1:PORT/api/ */
  apiUrl: string;
  baseUrl: string;
  calls: Recorder<RecordedCall>;
  responses: Recorder<RecordedResponse>;
  /** Messages by "channel:ts", as chat.postMessage/update/delete left them. */
  messages: Map<string, FakeMessage>;
  /** Files once files.completeUploadExternal shared them. */
  uploads: Recorder<FakeUpload>;
  /** Messages only their person sees, in the order shown (replace_original edits one in place). */
  ephemerals: Recorder<FakeEphemeral>;
  /** A fresh response_url on this server: Slack allows 5 uses within 30 minutes of the event it came with. */
  responseUrl(forWhom?: ResponseUrlFor): string;
  /** Moves the fake's clock on (response_urls expire after 30 minutes). */
  advance(ms: number): void;
  /** The next `times` calls to `method` get `fault` instead of an answer. */
  failNext(method: string, fault: SlackFault, times?: number): void;
  /** chat.postMessage into this channel answers not_in_channel, as for a channel the bot was not invited to. */
  notMember(channel: string): void;
  /** A member of the workspace users.info answers for (any other id: user_not_found); `bot` for an app's bot user. */
  addUser(user: { id: string; name: string; displayName?: string; bot?: boolean }): void;
  /** The DM channel conversations.open opened with this person, if the bot opened one. */
  dmChannelOf(user: string): string | undefined;
  waitForCall(method: string, match?: (call: RecordedCall) => boolean): Promise<RecordedCall>;
  waitForResponse(match?: (response: RecordedResponse) => boolean): Promise<RecordedResponse>;
  socket: FakeSocketMode;
  close(): Promise<void>;
}

const MAX_BODY = 2 * 1024 * 1024;
const RESPONSE_URL_USES = 5;
const RESPONSE_URL_MS = 30 * 60_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function parseBody(text: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.includes("application/json")) {
    const parsed: unknown = text ? JSON.parse(text) : {};
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    // The WebClient sends nested values (blocks, view) as JSON strings inside the form.
    if (/^\s*[[{]/.test(value)) {
      try {
        out[key] = JSON.parse(value);
        continue;
      } catch {
        // not JSON after all: keep the string
      }
    }
    out[key] = value;
  }
  return out;
}

/** What an upload_url received: Slack takes the raw bytes or a multipart form with the file in it. */
async function uploadedBytes(body: Buffer, contentType: string | undefined): Promise<Buffer> {
  if (!contentType?.includes("multipart/form-data")) return body;
  // undici's multipart parser, the same one fetch uses: no hand-rolled boundary splitting.
  const form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  for (const value of form.values()) {
    if (typeof value !== "string") return Buffer.from(await value.arrayBuffer());
  }
  throw new Error("multipart upload without a file part");
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  res.writeHead(status, {
    "content-type": typeof payload === "string" ? "text/plain" : "application/json; charset=utf-8",
    ...headers,
  });
  res.end(body);
}

export async function startFakeSlackApi(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const teamId = options.teamId ?? "T0FAKE";
  const botUserId = options.botUserId ?? "U0BOT";
  const botId = options.botId ?? "B0BOT";
  const calls = new Recorder<RecordedCall>();
  const responses = new Recorder<RecordedResponse>();
  const messages = new Map<string, FakeMessage>();
  const faults = new Map<string, SlackFault[]>();
  const responseUses = new Map<string, number>();
  const responseFor = new Map<string, ResponseUrlFor & { at: number }>();
  const ephemerals = new Recorder<FakeEphemeral>();
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;
  const outsiders = new Set<string>();
  const members = new Map<string, { id: string; name: string; displayName?: string; bot?: boolean }>();
  /** DM channels by person, as conversations.open opened them (the same one each time). */
  const dms = new Map<string, string>();
  const uploads = new Recorder<FakeUpload>();
  /** Files between files.getUploadURLExternal and files.completeUploadExternal. */
  const pending = new Map<string, { filename: string; declaredLength: number; altText?: string; bytes?: Buffer }>();
  let fileSeq = 0;
  let seq = 0;
  let views = 0;
  let baseUrl = "";
  const nextTs = () => `${1_700_000_000 + ++seq}.${String(seq).padStart(6, "0")}`;

  /** Slack's answer to one method call: the JSON body, or an error code. */
  const answer = (
    method: string,
    body: Record<string, unknown>,
    token: string | undefined,
  ): Record<string, unknown> => {
    const wantApp = method === "apps.connections.open";
    const expected = wantApp ? options.appToken : options.botToken;
    if (!token || (expected !== undefined && token !== expected))
      return { ok: false, error: wantApp ? "not_allowed_token_type" : "invalid_auth" };
    const channel = typeof body.channel === "string" ? body.channel : undefined;
    const problems = blockKitProblems(body.blocks);
    const stored = (ts: unknown) => (channel && typeof ts === "string" ? messages.get(`${channel}:${ts}`) : undefined);
    switch (method) {
      case "users.info": {
        const member = typeof body.user === "string" ? members.get(body.user) : undefined;
        if (!member) return { ok: false, error: "user_not_found" };
        const profile = { display_name: member.displayName ?? "", real_name: member.name };
        return {
          ok: true,
          user: { id: member.id, team_id: teamId, name: member.name, real_name: member.name, profile },
        };
      }
      case "auth.test":
        return {
          ok: true,
          url: "https://fake.slack.test/",
          team: "Fake Team",
          user: "rl-bot",
          team_id: teamId,
          user_id: botUserId,
          bot_id: botId,
          is_enterprise_install: false,
        };
      case "apps.connections.open":
        return { ok: true, url: socket.url() };
      case "conversations.open": {
        // Slack's rules for a bot token: one person is a 1:1 DM; a bot (this one included) cannot be DMed.
        const users = typeof body.users === "string" ? body.users.split(",").filter(Boolean) : [];
        if (users.length === 0) return { ok: false, error: "users_list_not_supplied" };
        if (users.length > 8) return { ok: false, error: "too_many_users" };
        const [user] = users;
        if (users.length > 1) return { ok: false, error: "method_not_supported_for_channel_type" };
        if (user === botUserId || members.get(user!)?.bot) return { ok: false, error: "cannot_dm_bot" };
        if (!members.has(user!)) return { ok: false, error: "user_not_found" };
        const opened = dms.get(user!);
        const id = opened ?? `D${user!.replace(/^[UW]/, "")}`;
        dms.set(user!, id);
        return { ok: true, channel: { id }, ...(opened ? { no_op: true, already_open: true } : {}) };
      }
      case "chat.postMessage": {
        if (!channel) return { ok: false, error: "channel_not_found" };
        // A DM channel exists only once conversations.open opened it.
        if (channel.startsWith("D") && ![...dms.values()].includes(channel))
          return { ok: false, error: "channel_not_found" };
        if (outsiders.has(channel)) return { ok: false, error: "not_in_channel" };
        if (!body.text && body.blocks === undefined) return { ok: false, error: "no_text" };
        if (problems.length > 0) return { ok: false, error: "invalid_blocks", errors: problems };
        const ts = nextTs();
        const message: FakeMessage = {
          channel,
          ts,
          text: body.text as string | undefined,
          blocks: body.blocks,
          thread_ts: body.thread_ts as string | undefined,
        };
        messages.set(`${channel}:${ts}`, message);
        return { ok: true, channel, ts, message: { ...message, user: botUserId, bot_id: botId } };
      }
      case "conversations.history": {
        if (!channel) return { ok: false, error: "channel_not_found" };
        // The channel as everyone sees it: top-level messages (a thread's replies are not in it), never ephemerals.
        const shown = [...messages.values()]
          .filter((m) => m.channel === channel && !m.deleted && (!m.thread_ts || m.thread_ts === m.ts))
          .reverse()
          .map((m) => ({ type: "message", ts: m.ts, text: m.text, blocks: m.blocks, user: botUserId, bot_id: botId }));
        return { ok: true, messages: shown, has_more: false };
      }
      case "chat.update": {
        // An ephemeral message has no ts chat.update knows: only its response_url can change it.
        const message = stored(body.ts);
        if (!message || message.deleted) return { ok: false, error: "message_not_found" };
        if (problems.length > 0) return { ok: false, error: "invalid_blocks", errors: problems };
        message.text = body.text as string | undefined;
        message.blocks = body.blocks;
        return { ok: true, channel, ts: message.ts, text: message.text };
      }
      case "chat.delete": {
        const message = stored(body.ts);
        if (!message || message.deleted) return { ok: false, error: "message_not_found" };
        message.deleted = true;
        return { ok: true, channel, ts: message.ts };
      }
      case "chat.postEphemeral":
        if (!channel) return { ok: false, error: "channel_not_found" };
        if (typeof body.user !== "string") return { ok: false, error: "user_not_in_channel" };
        if (problems.length > 0) return { ok: false, error: "invalid_blocks", errors: problems };
        {
          const ts = nextTs();
          ephemerals.push({
            channel,
            user: body.user,
            ts,
            text: body.text as string | undefined,
            blocks: body.blocks,
            via: "chat.postEphemeral",
          });
          return { ok: true, message_ts: ts };
        }
      case "files.getUploadURLExternal": {
        const length = Number(body.length);
        if (typeof body.filename !== "string" || !body.filename || !Number.isInteger(length) || length <= 0)
          return { ok: false, error: "invalid_arguments" };
        const fileId = `F${String(++fileSeq).padStart(8, "0")}`;
        pending.set(fileId, {
          filename: body.filename,
          declaredLength: length,
          ...(typeof body.alt_text === "string" ? { altText: body.alt_text } : {}),
        });
        return { ok: true, upload_url: `${baseUrl}/upload/${fileId}`, file_id: fileId };
      }
      case "files.completeUploadExternal": {
        const files = Array.isArray(body.files) ? (body.files as Array<{ id?: unknown; title?: unknown }>) : [];
        if (files.length === 0) return { ok: false, error: "invalid_arguments" };
        const target = typeof body.channel_id === "string" ? body.channel_id : undefined;
        if (body.thread_ts !== undefined && !target) return { ok: false, error: "invalid_arguments" };
        if (target && outsiders.has(target)) return { ok: false, error: "not_in_channel" };
        const ready = files.map((f) => ({
          id: String(f.id),
          title: typeof f.title === "string" ? f.title : undefined,
          file: pending.get(String(f.id)),
        }));
        // Slack only completes files whose bytes reached the upload_url.
        if (ready.some((r) => !r.file?.bytes)) return { ok: false, error: "file_not_found" };
        const shared = ready.map(({ id, title, file }) => {
          const bytes = file?.bytes ?? Buffer.alloc(0);
          pending.delete(id);
          const upload: FakeUpload = {
            fileId: id,
            filename: file?.filename ?? "",
            declaredLength: file?.declaredLength ?? 0,
            ...(file?.altText ? { altText: file.altText } : {}),
            bytes,
            isPng: bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE),
            ...(title ? { title } : {}),
            ...(target ? { channel: target } : {}),
            ...(typeof body.thread_ts === "string" ? { thread_ts: body.thread_ts } : {}),
            ...(typeof body.initial_comment === "string" ? { initial_comment: body.initial_comment } : {}),
          };
          uploads.push(upload);
          return {
            id,
            name: upload.filename,
            title: title ?? upload.filename,
            mimetype: upload.isPng ? "image/png" : "application/octet-stream",
            size: bytes.length,
          };
        });
        return { ok: true, files: shared };
      }
      case "views.open":
      case "views.push":
      case "views.update":
      case "views.publish":
        return { ok: true, view: { id: `V${++views}`, team_id: teamId, ...(body.view as object | undefined) } };
      default:
        return { ok: false, error: "unknown_method" };
    }
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, method: string): Promise<void> => {
    const body = parseBody(await readBody(req, MAX_BODY), req.headers["content-type"]);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const token = bearer ?? (typeof body.token === "string" ? body.token : undefined);
    const fault = faults.get(method)?.shift();
    if (fault) {
      if ("error" in fault) {
        calls.push({ method, body, token, status: 200, ok: false, error: fault.error, at: Date.now() });
        return send(res, 200, { ok: false, error: fault.error });
      }
      calls.push({
        method,
        body,
        token,
        at: Date.now(),
        status: fault.status,
        ok: false,
        error: fault.status === 429 ? "ratelimited" : "http_error",
      });
      if ("retryAfter" in fault)
        return send(res, 429, { ok: false, error: "ratelimited" }, { "retry-after": String(fault.retryAfter) });
      return send(res, fault.status, "fake failure");
    }
    const result = answer(method, body, token);
    calls.push({
      method,
      body,
      token,
      at: Date.now(),
      status: 200,
      ok: result.ok === true,
      ...(typeof result.error === "string" ? { error: result.error } : {}),
    });
    send(res, 200, result);
  };

  const handleUpload = async (req: IncomingMessage, res: ServerResponse, fileId: string): Promise<void> => {
    const bytes = await uploadedBytes(await readBytes(req, MAX_BODY), req.headers["content-type"]);
    const file = pending.get(fileId);
    if (!file) return send(res, 404, "unknown_upload");
    file.bytes = bytes;
    send(res, 200, `OK - ${bytes.length}`);
  };

  /** What a response_url post shows: a new public or private message, or the clicked one replaced or deleted. */
  const showResponse = (bound: ResponseUrlFor, body: Record<string, unknown>): void => {
    const channel = bound.channel;
    if (!channel) return;
    const clicked = bound.messageTs;
    const original = clicked
      ? (messages.get(`${channel}:${clicked}`) ?? ephemerals.items.find((e) => e.ts === clicked && !e.deleted))
      : undefined;
    if (body.delete_original === true) {
      if (original) original.deleted = true;
      return;
    }
    const content = { text: body.text as string | undefined, blocks: body.blocks };
    if (body.replace_original === true && original) {
      Object.assign(original, content);
      return;
    }
    if (body.response_type === "in_channel") {
      const ts = nextTs();
      messages.set(`${channel}:${ts}`, { channel, ts, ...content });
      return;
    }
    ephemerals.push({
      channel,
      ...(bound.user ? { user: bound.user } : {}),
      ts: nextTs(),
      ...content,
      via: "response_url",
    });
  };

  const handleResponseUrl = async (req: IncomingMessage, res: ServerResponse, id: string): Promise<void> => {
    const text = await readBody(req, MAX_BODY);
    const uses = responseUses.get(id);
    const bound = responseFor.get(id);
    if (uses === undefined || !bound || now() - bound.at > RESPONSE_URL_MS) return send(res, 404, "expired_url");
    if (uses >= RESPONSE_URL_USES) return send(res, 404, "used_url");
    responseUses.set(id, uses + 1);
    const body = parseBody(text, "application/json");
    responses.push({ id, body });
    showResponse(bound, body);
    send(res, 200, "ok");
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const api = /^\/api\/([\w.]+)$/.exec(url.pathname);
    const response = /^\/response\/([\w-]+)$/.exec(url.pathname);
    const upload = /^\/upload\/(F\w+)$/.exec(url.pathname);
    const work =
      req.method === "POST" && api?.[1]
        ? handleApi(req, res, api[1])
        : req.method === "POST" && response?.[1]
          ? handleResponseUrl(req, res, response[1])
          : req.method === "POST" && upload?.[1]
            ? handleUpload(req, res, upload[1])
            : Promise.resolve(send(res, 404, "not found"));
    work.catch((err: unknown) => {
      if (!res.headersSent) send(res, 400, { ok: false, error: "invalid_form_data", detail: String(err) });
    });
  });
  const socket = attachFakeSocketMode(server, () => baseUrl);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  let responseIds = 0;

  return {
    apiUrl: `${baseUrl}/api/`,
    baseUrl,
    calls,
    responses,
    messages,
    ephemerals,
    uploads,
    responseUrl(forWhom = {}) {
      const id = `r${++responseIds}`;
      responseUses.set(id, 0);
      responseFor.set(id, { ...forWhom, at: now() });
      return `${baseUrl}/response/${id}`;
    },
    advance: (ms) => void (clockOffset += ms),
    failNext(method, fault, times = 1) {
      const queue = faults.get(method) ?? [];
      for (let i = 0; i < times; i++) queue.push(fault);
      faults.set(method, queue);
    },
    notMember: (channel) => void outsiders.add(channel),
    addUser: (user) => void members.set(user.id, user),
    dmChannelOf: (user) => dms.get(user),
    waitForCall: (method, match = () => true) => calls.waitFor((c) => c.method === method && match(c)),
    waitForResponse: (match) => responses.waitFor(match),
    socket,
    async close() {
      await socket.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
