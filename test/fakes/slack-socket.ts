// The Socket Mode side of the fake Slack: a websocket that says hello, pushes envelopes, and records the app's acks.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { Recorder } from "./slack-recorder.ts";

export const SOCKET_PATH = "/socket-mode";

export interface SocketAck {
  envelope_id: string;
  payload?: unknown;
}

export type EnvelopeType = "slash_commands" | "interactive" | "events_api";

export interface FakeSocketMode {
  /** The ws:// URL apps.connections.open hands out. */
  url(): string;
  /** Resolves when an app has connected and been sent hello. */
  waitForConnection(): Promise<void>;
  /** Every message the app sent that carried an envelope_id. */
  acks: Recorder<SocketAck>;
  /** Push an envelope to the connected app; `acked` resolves with its ack. */
  send(type: EnvelopeType, payload: unknown): { envelopeId: string; acked: Promise<SocketAck> };
  close(): Promise<void>;
}

export function attachFakeSocketMode(server: Server, baseUrl: () => string): FakeSocketMode {
  const wss = new WebSocketServer({ noServer: true });
  const clients = new Set<WebSocket>();
  const acks = new Recorder<SocketAck>();
  const connected = new Recorder<WebSocket>();
  let envelopes = 0;

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!req.url?.startsWith(SOCKET_PATH)) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ws.on("close", () => clients.delete(ws));
      ws.on("message", (data) => {
        let message: unknown;
        try {
          message = JSON.parse(String(data));
        } catch {
          return;
        }
        const m = message as { envelope_id?: unknown; payload?: unknown };
        if (typeof m.envelope_id === "string") acks.push({ envelope_id: m.envelope_id, payload: m.payload });
      });
      // Slack's first frame: the client counts itself connected only after this.
      ws.send(
        JSON.stringify({
          type: "hello",
          num_connections: clients.size,
          connection_info: { app_id: "A0FAKEAPP" },
          debug_info: { host: "fake" },
        }),
      );
      connected.push(ws);
    });
  });

  return {
    url: () => `${baseUrl().replace(/^http/, "ws")}${SOCKET_PATH}/?ticket=fake-${Date.now()}`,
    acks,
    waitForConnection: async () => {
      await connected.waitFor((ws) => clients.has(ws));
    },
    send(type, payload) {
      const envelopeId = `env-${++envelopes}`;
      const ws = [...clients].at(-1);
      if (!ws) throw new Error("no Socket Mode client is connected");
      ws.send(
        JSON.stringify({
          envelope_id: envelopeId,
          type,
          payload,
          accepts_response_payload: type !== "events_api",
          retry_attempt: 0,
          retry_reason: "",
        }),
      );
      return { envelopeId, acked: acks.waitFor((a) => a.envelope_id === envelopeId) };
    },
    close: async () => {
      for (const ws of clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
