// The exec side of the bot's socket: one request line out; an acknowledgement, then one response line back.
import { connect } from "node:net";
import { RlError } from "../errors.ts";

export interface BotRequest {
  text: string;
  channel?: string;
  user?: string;
  json?: boolean;
  /**
   * The client's id for this request: a command that changes something runs once for it, and the same request sent
   * again (after its owner died, or by a client retrying) hears the first answer. askSupervisor makes one when absent.
   */
  id?: string;
}

/**
 * A person's own agent (rl-chatops mcp): one of the registry's tools by name with its arguments, or the answer to a
 * confirmation prompt a tool call made (the person accepted or declined it through the agent's client).
 */
export type AgentRequest = (
  { tool: string; args: Record<string, unknown> } | { confirmation: string; answer: "confirm" | "cancel" }
) & {
  via: "mcp";
  channel?: string;
  user?: string;
  /** The person came in over HTTP with a bearer token, not from this machine's terminal. */
  remote?: boolean;
  /** As a BotRequest's: a call that changes something runs once for it. */
  id?: string;
};

/** Not a command: `stop` asks the bot to shut down in order (rl-chatops stop, a bot taking the folder over). */
export interface BotControl {
  control: "stop";
}

export interface BotResponse {
  ok: boolean;
  code?: string;
  /** The reply, already redacted by the bot. */
  reply: unknown;
  /** What exec prints: the rendered text, or the JSON. */
  rendered: string;
  /** The bot took no new command: it is shutting down (exec asks the next owner of the folder instead). */
  shuttingDown?: boolean;
  /** The answer recorded for an earlier request with the same id: nothing ran again. */
  replayed?: boolean;
  /** An agent's tool call that needs the person's confirmation: `reply` is the prompt, nothing ran. */
  needsConfirmation?: boolean;
}

/** The exit codes of docs/command-line.md: 0 done, 1 refused or failed, 2 usage. */
export function exitCodeOf(response: Pick<BotResponse, "ok" | "code">): number {
  if (response.ok) return 0;
  return response.code === "USAGE" ? 2 : 1;
}

/**
 * The first line the bot writes on a connection, as soon as it has read the request, before it runs the command: a
 * command may take minutes (a start waits for its run to be up), but taking it is immediate, so silence means a bot
 * that is stopped or hung.
 */
export const ACK_LINE = '{"ack":true}';

/** What the process behind the socket is doing: running (or unknown), stopped by a signal, or gone. */
export type BotState = "running" | "stopped" | "gone";

export interface AskOptions {
  /** While the bot is still starting (no socket yet), how long to keep trying to connect. */
  connectWaitMs: number;
  /** How long the bot has to acknowledge the request; also how long it may stay stopped while working on it. */
  ackTimeoutMs: number;
  botState: () => BotState;
  /** How often the bot's state is looked at while its answer is awaited. */
  pollMs?: number;
}

/** Connect errors that mean "nobody is listening yet": the bot may be between winning the lease and serving. */
const NOT_LISTENING = new Set(["ENOENT", "ECONNREFUSED"]);

function askOnce(
  socketPath: string,
  request: BotRequest | AgentRequest | BotControl,
  options: AskOptions,
): Promise<BotResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let buffer = "";
    let settled = false;
    let acknowledged = false;
    let stoppedSince: number | undefined;
    let watch: NodeJS.Timeout | undefined;
    const settle = (end: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(ackTimer);
      clearInterval(watch);
      end();
    };
    // The caller knows the bot's pid and folder, and says what to do from details.acknowledged and details.stopped.
    const giveUp = () =>
      settle(() => {
        socket.destroy();
        const details = { acknowledged, stopped: options.botState() === "stopped" };
        const what = acknowledged ? "stayed stopped while answering" : "did not acknowledge the command";
        reject(new RlError("TIMEOUT", `The bot ${what} (${options.ackTimeoutMs} ms).`, { details }));
      });
    const ackTimer = setTimeout(giveUp, options.ackTimeoutMs);
    // Once it has the command the bot may work on it as long as it needs, unless it stays stopped.
    const watchWhileAnswering = () => {
      acknowledged = true;
      clearTimeout(ackTimer);
      watch = setInterval(() => {
        if (options.botState() !== "stopped") stoppedSince = undefined;
        else if (Date.now() - (stoppedSince ??= Date.now()) >= options.ackTimeoutMs) giveUp();
      }, options.pollMs ?? 250);
    };
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\n"); end >= 0 && !settled; end = buffer.indexOf("\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (!acknowledged && line === ACK_LINE) {
          watchWhileAnswering();
          continue;
        }
        settle(() => {
          socket.end();
          try {
            resolve(JSON.parse(line) as BotResponse);
          } catch (err) {
            reject(new RlError("INTERNAL", "The bot's answer was not JSON; see the bot's log.", { cause: err }));
          }
        });
      }
    });
    socket.on("error", (err) => settle(() => reject(err)));
    socket.on("close", () =>
      settle(() =>
        reject(new RlError("UPSTREAM", "The bot closed the connection before answering; see the bot's log.")),
      ),
    );
  });
}

/**
 * Ask the bot; while it is still starting (no socket yet) try again for up to `connectWaitMs`. Gives up (TIMEOUT)
 * when the bot does not acknowledge the request within `ackTimeoutMs`, or stays stopped that long while answering.
 */
export async function askBot(
  socketPath: string,
  request: BotRequest | AgentRequest | BotControl,
  options: AskOptions,
): Promise<BotResponse> {
  const deadline = Date.now() + options.connectWaitMs;
  for (;;) {
    try {
      return await askOnce(socketPath, request, options);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (
        typeof code !== "string" ||
        !NOT_LISTENING.has(code) ||
        Date.now() >= deadline ||
        options.botState() === "gone"
      ) {
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
