// A local fake Discord on 127.0.0.1: REST under /v10 and a gateway websocket on the same port, for real discord.js.
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";
import {
  buttonInteraction,
  commandInteraction,
  userMessage,
  type InteractionBase,
  type OptionValues,
} from "./discord-interaction-payloads.ts";
import {
  ALICE,
  BOT_USER,
  defaultWorld,
  guildCreateJson,
  IDS,
  userJson,
  type FakeUser,
  type FakeWorld,
  type Json,
} from "./discord-payloads.ts";
import { createFakeRest, EPHEMERAL, type RecordedCall, type RestFault } from "./discord-rest.ts";
import { WAIT_CEILING_MS } from "../helpers/ceiling.ts";

export { ALICE, BOB, IDS } from "./discord-payloads.ts";
export type { FakeUser, Json } from "./discord-payloads.ts";
export type { RecordedCall } from "./discord-rest.ts";

export interface FakeDiscordOptions {
  token?: string;
  /** HELLO's heartbeat_interval; small values make the client heartbeat often. */
  heartbeatIntervalMs?: number;
}

export interface InteractionHandle {
  id: string;
  token: string;
  /** The first callback the bot POSTed for this interaction. */
  callback(): Promise<RecordedCall>;
}

export type GatewayEvent = "identify" | "resume" | "heartbeat";

interface Session {
  id: string;
  seq: number;
  events: Json[];
}

/** A wait for the bot's answer fails with what the fake did see only at the suite's ceiling (a diagnosis, not a timing check). */
const WAIT_MS = WAIT_CEILING_MS;

export async function startFakeDiscord(options: FakeDiscordOptions = {}) {
  const token = options.token ?? "fake-bot-token.0123456789";
  const world: FakeWorld = defaultWorld();
  const events = new EventEmitter();
  events.setMaxListeners(100);
  const counts: Record<GatewayEvent, number> = { identify: 0, resume: 0, heartbeat: 0 };
  const identifies: Json[] = [];
  let port = 0;

  const rest = createFakeRest({
    world,
    token,
    applicationId: IDS.application,
    gatewayUrl: () => `ws://127.0.0.1:${port}`,
    onCall: (call) => events.emit("call", call),
  });
  const server = createServer((req, res) => void rest.handle(req, res));
  const wss = new WebSocketServer({ server });
  const sessions = new Map<string, Session>();
  let current: Session | undefined;
  let live: { socket: WebSocket; session: Session } | undefined;

  const send = (socket: WebSocket, payload: Json): void => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
  };
  const count = (event: GatewayEvent): void => {
    counts[event]++;
    events.emit(event);
  };

  const dispatch = (t: string, d: unknown): void => {
    const session = current;
    if (!session) throw new Error("no gateway session yet: start the bot first");
    const event = { op: 0, t, s: ++session.seq, d };
    session.events.push(event);
    if (session.events.length > 200) session.events.shift();
    // A dropped connection keeps the events; a RESUME replays them, as Discord does.
    if (live?.session === session) send(live.socket, event);
  };

  wss.on("connection", (socket, req) => {
    const url = new URL(req.url ?? "/", "ws://127.0.0.1");
    if (url.searchParams.get("v") !== "10" || url.searchParams.get("encoding") !== "json") {
      socket.close(4012, "Invalid API version");
      return;
    }
    send(socket, { op: 10, s: null, t: null, d: { heartbeat_interval: options.heartbeatIntervalMs ?? 41_250 } });
    socket.on("message", (raw) => {
      let packet: Json;
      try {
        packet = JSON.parse(String(raw)) as Json;
      } catch {
        socket.close(4002, "Decode error");
        return;
      }
      const d = (packet["d"] ?? {}) as Json;
      switch (packet["op"]) {
        case 1:
          send(socket, { op: 11, s: null, t: null, d: null });
          count("heartbeat");
          break;
        case 2: {
          if (d["token"] !== token) {
            socket.close(4004, "Authentication failed");
            return;
          }
          identifies.push(d);
          const session: Session = { id: randomBytes(16).toString("hex"), seq: 0, events: [] };
          sessions.set(session.id, session);
          current = session;
          live = { socket, session };
          dispatch("READY", {
            v: 10,
            user: userJson(BOT_USER),
            guilds: [{ id: world.guildId, unavailable: true }],
            session_id: session.id,
            resume_gateway_url: `ws://127.0.0.1:${port}`,
            shard: [0, 1],
            application: { id: IDS.application, flags: 0 },
            private_channels: [],
            relationships: [],
            presences: [],
            guild_join_requests: [],
            geo_ordered_rtc_regions: [],
            user_settings: {},
            _trace: ["fake-discord"],
          });
          dispatch("GUILD_CREATE", guildCreateJson(world));
          count("identify");
          break;
        }
        case 6: {
          const session = sessions.get(String(d["session_id"]));
          if (!session || d["token"] !== token) {
            send(socket, { op: 9, s: null, t: null, d: false });
            return;
          }
          live = { socket, session };
          current = session;
          for (const event of session.events) if (Number(event["s"]) > Number(d["seq"] ?? 0)) send(socket, event);
          dispatch("RESUMED", {});
          count("resume");
          break;
        }
        default:
          break;
      }
    });
    socket.on("close", () => {
      if (live?.socket === socket) live = undefined;
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;

  const waitForCall = (predicate: (call: RecordedCall) => boolean, what = "a REST call"): Promise<RecordedCall> => {
    const seen = rest.state.calls.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        events.off("call", listener);
        const recent = rest.state.calls.slice(-10).map((c) => `${c.method} ${c.path} -> ${c.status}`);
        reject(new Error(`fake Discord never saw ${what}; the last calls were:\n${recent.join("\n")}`));
      }, WAIT_MS);
      const listener = (call: RecordedCall): void => {
        if (!predicate(call)) return;
        clearTimeout(timer);
        events.off("call", listener);
        resolve(call);
      };
      events.on("call", listener);
    });
  };

  /** Resolves once `event` has happened `n` times in all. */
  const waitForGateway = (event: GatewayEvent, n = 1): Promise<void> =>
    new Promise((resolve, reject) => {
      if (counts[event] >= n) return resolve();
      const timer = setTimeout(() => {
        events.off(event, listener);
        reject(new Error(`fake Discord saw ${counts[event]} ${event}(s), waiting for ${n}`));
      }, WAIT_MS);
      const listener = (): void => {
        if (counts[event] < n) return;
        clearTimeout(timer);
        events.off(event, listener);
        resolve();
      };
      events.on(event, listener);
    });

  const rlCommand = (): Json => {
    const command = [
      ...(rest.state.commands.get(world.guildId) ?? []),
      ...(rest.state.commands.get("global") ?? []),
    ].find((c) => c["name"] === "rl");
    if (!command) throw new Error("the bot has not registered /rl yet");
    return command;
  };

  const track = (
    built: { id: string; token: string; payload: Json },
    user: FakeUser,
    componentMessageId?: string,
  ): InteractionHandle => {
    const payload = built.payload;
    rest.state.interactions.set(built.token, {
      id: built.id,
      token: built.token,
      type: Number(payload["type"]),
      channelId: String(payload["channel_id"]),
      guildId: world.guildId,
      user,
      componentMessageId,
      acknowledged: false,
    });
    dispatch("INTERACTION_CREATE", payload);
    const callbackPath = `/interactions/${built.id}/${built.token}/callback`;
    return {
      id: built.id,
      token: built.token,
      callback: () =>
        waitForCall(
          (c) => c.method === "POST" && c.path === callbackPath && c.status < 300,
          `the callback of interaction ${built.id}`,
        ),
    };
  };

  return {
    /** The REST base URL for DISCORD_API_URL / `rest.api` (discord.js appends /v10). */
    apiUrl: `http://127.0.0.1:${port}`,
    token,
    world,
    ids: IDS,
    /** Every REST call, in order, with what the fake answered. */
    calls: rest.state.calls,
    state: rest.state,
    /** IDENTIFY payloads received (intents, properties...). */
    identifies,
    counts,
    waitForCall,
    waitForGateway,

    /** The command JSON the bot registered: "global" or a guild id. */
    registeredCommands: (scope = world.guildId): Json[] => rest.state.commands.get(scope) ?? [],

    /** Make the next `times` requests matching path (and method) fail with `status` (429 with retry_after). */
    fault: (f: Omit<RestFault, "times"> & { times?: number }): void => {
      rest.state.faults.push({ ...f, times: f.times ?? 1 });
    },

    /** A person runs /rl <sub> with these option values. */
    slash: (sub: string, values: OptionValues = {}, b: InteractionBase = {}): InteractionHandle =>
      track(commandInteraction(world, rlCommand(), sub, values, b), b.user ?? ALICE),

    /** A person types in option `focused` of /rl <sub>: an autocomplete interaction. */
    autocomplete: (sub: string, values: OptionValues, focused: string, b: InteractionBase = {}): InteractionHandle =>
      track(commandInteraction(world, rlCommand(), sub, values, b, focused), b.user ?? ALICE),

    /** A person clicks the button with `customId` on message `messageId`. */
    click: (messageId: string, customId: string, b: InteractionBase = {}): InteractionHandle => {
      const message = rest.state.messages.get(messageId);
      if (!message) throw new Error(`the fake has no message ${messageId}`);
      // Discord shows an ephemeral message to the one person whose interaction it answers: nobody else sees its buttons.
      const owner = (message["interaction_metadata"] as { user?: { id?: string } } | undefined)?.user?.id;
      const clicker = (b.user ?? ALICE).id;
      if ((Number(message["flags"] ?? 0) & EPHEMERAL) !== 0 && owner !== undefined && owner !== clicker)
        throw new Error(
          `message ${messageId} is ephemeral, shown only to user ${owner}: user ${clicker} cannot click it`,
        );
      return track(buttonInteraction(world, message, customId, b), b.user ?? ALICE, messageId);
    },

    /** A person posts a message in a channel (mentioning the bot when `mentionBot`). */
    say: (
      author: FakeUser,
      content: string,
      { channelId = IDS.channel, mentionBot = true }: { channelId?: string; mentionBot?: boolean } = {},
    ): Json => {
      const message = userMessage(world, author, content, channelId, mentionBot ? [BOT_USER] : []);
      rest.state.messages.set(String(message["id"]), message);
      dispatch("MESSAGE_CREATE", message);
      return message;
    },

    /** Send any dispatch event (t, d) on the live session. */
    dispatch,

    /**
     * Close the live gateway socket as a network failure would (4000: the client resumes). With invalidateSession the
     * session is forgotten, so the RESUME gets INVALID_SESSION (op 9) and the client must IDENTIFY again.
     */
    dropConnection: (code = 4000, { invalidateSession = false }: { invalidateSession?: boolean } = {}): void => {
      if (invalidateSession && current) sessions.delete(current.id);
      live?.socket.close(code, "fake Discord dropped the connection");
    },

    message: (id: string): Json | undefined => rest.state.messages.get(id),

    /** A message the bot posted earlier (before a restart, say), titled `title`. */
    botMessage: (channelId: string, title: string): Json => rest.createMessage(channelId, { embeds: [{ title }] }),

    /** The messages in a channel (or thread), oldest first. */
    channelMessages: (channelId: string): Json[] =>
      [...rest.state.messages.values()].filter((m) => m["channel_id"] === channelId),

    /** The bot loses its rights in a channel: "access" (it cannot see it: 50001) or "send" (it may not post: 50013). */
    deny: (channelId: string, what: "access" | "send"): void => void rest.state.denied.set(channelId, what),

    /** The person turns off DMs from server members: posts to their DM channel answer 50007. */
    turnOffDms: (userId: string): void => void rest.state.dmsOff.add(userId),

    /** The DM channel POST /users/@me/channels opened with this person, if the bot opened one. */
    dmChannelOf: (userId: string): string | undefined => rest.state.dms.get(userId),

    /** The channel is deleted: everything about it answers 10003 Unknown Channel. */
    deleteChannel: (channelId: string): void => void rest.state.channels.delete(channelId),

    async close(): Promise<void> {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;
