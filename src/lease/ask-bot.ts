// The exec side of the bot's socket: one request line out, one response line back.
import { connect } from "node:net";
import { RlError } from "../errors.ts";

export interface BotRequest {
  text: string;
  channel?: string;
  user?: string;
  json?: boolean;
}

export interface BotResponse {
  ok: boolean;
  code?: string;
  /** The reply, already redacted by the bot. */
  reply: unknown;
  /** What exec prints: the rendered text, or the JSON. */
  rendered: string;
}

/** Connect errors that mean "nobody is listening yet": the bot may be between winning the lease and serving. */
const NOT_LISTENING = new Set(["ENOENT", "ECONNREFUSED"]);

function askOnce(socketPath: string, request: BotRequest): Promise<BotResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let buffer = "";
    let answered = false;
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf("\n");
      if (end < 0) return;
      answered = true;
      socket.end();
      try {
        resolve(JSON.parse(buffer.slice(0, end)) as BotResponse);
      } catch (err) {
        reject(new RlError("INTERNAL", "The bot's answer was not JSON; see the bot's log.", { cause: err }));
      }
    });
    socket.on("error", (err) => reject(err));
    socket.on("close", () => {
      if (!answered)
        reject(new RlError("UPSTREAM", "The bot closed the connection before answering; see the bot's log."));
    });
  });
}

/** Ask the bot; while it is still starting (no socket yet) try again for up to `waitMs`. */
export async function askBot(
  socketPath: string,
  request: BotRequest,
  waitMs = 5000,
  isAlive: () => boolean = () => true,
): Promise<BotResponse> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await askOnce(socketPath, request);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code !== "string" || !NOT_LISTENING.has(code) || Date.now() >= deadline || !isAlive()) {
        if (err instanceof RlError) throw err;
        throw new RlError(
          "UPSTREAM",
          `The running bot does not answer on ${socketPath} (${(err as Error).message}). Check the bot's log, or restart it.`,
          { cause: err },
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
