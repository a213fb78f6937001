// `rl-chatops mcp`: the MCP server for a person's own coding agent, a client of the owner of the data folder like exec
// (starting the background supervisor when none runs). stdio for a local agent; --http serves Streamable HTTP.
import { readFileSync } from "node:fs";
import path from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createAgentServer } from "../../adapters/mcp/create-agent-server.ts";
import type { AgentCall } from "../../adapters/mcp/call-agent-tool.ts";
import { COMMANDS } from "../../commands/index.ts";
import type { Config } from "../config.ts";
import type { BotResponse } from "../lease/ask-bot.ts";
import { PACKAGE_ROOT } from "../package-root.ts";
import { ackTimeoutOf } from "./ack-timeout.ts";
import { askSupervisor, type OwnerSearch } from "./ask-supervisor.ts";
import { readClientDataDir } from "./client-data-dir.ts";
import type { ExecLoaders } from "./exec-loaders.ts";
import { UsageError, type CommandLine } from "./parse-command-line.ts";

/** The channel an agent acts in when --channel names none. */
const DEFAULT_CHANNEL = "mcp";

/** Who the calls are made as, and where: filled into every call the server hands the owner. */
export interface AgentSeat {
  channel: string;
  /** Over stdio only when --user names another person (the bot decides whether this machine's user may). */
  user?: string;
  remote?: boolean;
}

/** Hands one call to the owner of the data folder as `seat`, waiting `ackTimeoutMs` for it to take the call. */
export type AskOwner = (call: AgentCall, seat: AgentSeat) => Promise<BotResponse>;

export function askOwnerWith(search: OwnerSearch, ackTimeoutMs: number): AskOwner {
  return (call, seat) => askSupervisor(search, { ...call, via: "mcp", ...seat }, ackTimeoutMs);
}

/** What a person whose client cannot show a prompt does instead. */
export function confirmElsewhere(channel: string): (command: string) => string {
  return (command) =>
    `To go ahead, the person runs it themselves: rl-chatops exec "${command}" --channel ${channel} in a terminal (or uses an MCP client that supports elicitation).`;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version?: string };
  return pkg.version ?? "0";
}

/** The MCP server for one client, its calls made as `seat`. */
function agentServerFor(ask: AskOwner, seat: AgentSeat) {
  return createAgentServer({
    ask: (call) => ask(call, seat),
    confirmElsewhere: confirmElsewhere(seat.channel),
    commands: COMMANDS,
    version: packageVersion(),
  });
}

/** Serves one agent on stdin/stdout until the client closes stdin. */
async function serveStdio(ask: AskOwner, seat: AgentSeat): Promise<number> {
  const server = agentServerFor(ask, seat);
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
  return 0;
}

export async function runMcp(line: CommandLine, loaders: ExecLoaders): Promise<number> {
  const ackTimeoutMs = ackTimeoutOf(line);
  let loaded: Promise<Config> | undefined;
  const settings = () => (loaded ??= loaders.settings());
  const dataDir = readClientDataDir() ?? (await settings()).dataDir;
  const channel = line.options.channel ?? DEFAULT_CHANNEL;
  const ask = askOwnerWith({ dataDir, settings, starter: loaders.starter }, ackTimeoutMs);
  if (line.options["new-token"] !== undefined || line.options.http) {
    const http = await import("./mcp-http-command.ts");
    const file = http.tokensFileOf(line, dataDir);
    const person = line.options["new-token"];
    if (person !== undefined) return http.newToken(file, person);
    if (line.options.user)
      throw new UsageError("--user is for stdio: over --http each person is known by their token.");
    // Over HTTP the person is whoever the token stands for, with their own role (not the terminal's admin).
    return http.serveHttp(line, file, (user) => agentServerFor(ask, { channel, user, remote: true }), channel);
  }
  // As exec: the bot takes the machine's user running this as the person, unless its settings let --user name another.
  const named = line.options.user;
  return serveStdio(ask, { channel, ...(named !== undefined ? { user: named } : {}) });
}
