// The bot's Unix socket for rl-chatops exec: newline-delimited JSON requests, acknowledged at once, answered by the same dispatcher.
import { chmodSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { z } from "zod";
import { ACK_LINE, type BotResponse } from "../../src/lease/ask-bot.ts";
import { MAX_COMMAND_LENGTH, MAX_REQUEST_BYTES } from "../../src/values/input-limits.ts";
import type { Services } from "../../src/services.ts";
import { runAgentRequest } from "../mcp/run-agent-request.ts";
import { runCliCommand } from "./cli-command.ts";

/** Where an agent acts and as whom (rl-chatops mcp): the server authenticated the person before asking. */
const agentFields = {
  via: z.literal("mcp"),
  channel: z.string().max(200).optional(),
  user: z.string().max(200).optional(),
  remote: z.boolean().optional(),
  // As a text request's: its shape is checked by the dispatcher.
  id: z.string().max(200).optional(),
};

const requestSchema = z.union([
  z.object({ control: z.literal("stop") }),
  z.object({ tool: z.string().max(100), args: z.record(z.string(), z.unknown()), ...agentFields }),
  z.object({ confirmation: z.string().max(100), answer: z.enum(["confirm", "cancel"]), ...agentFields }),
  z.object({
    // Its length is checked by the dispatcher, which says the length and the limit.
    text: z.string(),
    channel: z.string().max(200).optional(),
    user: z.string().max(200).optional(),
    json: z.boolean().optional(),
    // Its shape is checked by the dispatcher, which says what one looks like.
    id: z.string().max(200).optional(),
  }),
]);

/** A request line over the limit: its length and the limit, and what to do (nothing is run). */
function tooLong(bytes: number): BotResponse {
  const message =
    `The request is ${bytes.toLocaleString("en")} bytes long; the limit is ${MAX_REQUEST_BYTES.toLocaleString("en")} ` +
    `(a command is at most ${MAX_COMMAND_LENGTH.toLocaleString("en")} characters). Nothing was run; shorten it.`;
  const reply = { error: { code: "USAGE", message, details: { length: bytes, limit: MAX_REQUEST_BYTES } } };
  return { ok: false, code: "USAGE", reply, rendered: message };
}

export interface CliSocketServer {
  /** Stop taking requests, let the ones in flight answer, then close. */
  stop(): Promise<void>;
  /** Commands being answered now. */
  inFlight(): number;
}

export interface CliSocketOptions {
  /** Asked to shut down in order (rl-chatops stop, a bot taking the folder over); answered before it begins. */
  onStopRequest?: () => void;
  /** A command has been answered. */
  onAnswered?: () => void;
}

/** Listen on `socketPath`; the caller holds the data folder's lease, so a file already there is stale. */
export async function serveCliSocket(
  services: Services,
  socketPath: string,
  options: CliSocketOptions = {},
): Promise<CliSocketServer> {
  const inFlight = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  let stopping = false;

  const answer = async (socket: Socket, line: string) => {
    let response: BotResponse;
    try {
      const request = requestSchema.parse(JSON.parse(line));
      if ("control" in request) {
        response = { ok: true, reply: {}, rendered: `Stopping (pid ${process.pid}).`, shuttingDown: stopping };
        if (!socket.destroyed) socket.end(`${JSON.stringify(response)}\n`);
        if (!stopping) options.onStopRequest?.();
        return;
      }
      response = stopping
        ? {
            ok: false,
            code: "CONFLICT",
            reply: {},
            rendered: "The bot is shutting down; run the command again when it is back (or with no bot running).",
            shuttingDown: true,
          }
        : "via" in request
          ? await runAgentRequest(services, request)
          : await runCliCommand(services, request);
    } catch (err) {
      services.log.warn("bad exec request", { err: (err as Error).message });
      response = { ok: false, code: "USAGE", reply: {}, rendered: "The request was not a valid exec request." };
    }
    if (!socket.destroyed) socket.end(`${JSON.stringify(response)}\n`);
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const chunks: Buffer[] = [];
    // The request line's length so far: a line over the limit is not kept, only counted to its end, so that the answer
    // can say how long it was.
    let bytes = 0;
    socket.on("data", (chunk: Buffer) => {
      const end = chunk.indexOf(10);
      const part = end < 0 ? chunk : chunk.subarray(0, end);
      bytes += part.length;
      if (bytes <= MAX_REQUEST_BYTES) chunks.push(part);
      else chunks.length = 0;
      if (end < 0) return;
      // One request per connection: later bytes are ignored.
      socket.removeAllListeners("data");
      // Taken at once, however long the command then takes: exec waits for the answer only from a bot that acknowledges.
      socket.write(`${ACK_LINE}\n`);
      const work = (
        bytes > MAX_REQUEST_BYTES
          ? Promise.resolve(void (!socket.destroyed && socket.end(`${JSON.stringify(tooLong(bytes))}\n`)))
          : answer(socket, Buffer.concat(chunks).toString("utf8"))
      ).finally(() => {
        inFlight.delete(work);
        options.onAnswered?.();
      });
      inFlight.add(work);
    });
  });

  rmSync(socketPath, { force: true });
  // Only this user may talk to the bot: the socket is born 0600, not chmod-ed after a window.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // listen() binds synchronously, so the umask is narrowed for exactly that call.
    const umask = process.umask(0o177);
    try {
      server.listen(socketPath, () => resolve());
    } finally {
      process.umask(umask);
    }
  });
  chmodSync(socketPath, 0o600);
  server.on("error", (err) => services.log.error("exec socket failed", { err }));

  return {
    inFlight: () => inFlight.size,
    async stop() {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...inFlight]);
      // Connections that never sent a whole line would hold close() open.
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
