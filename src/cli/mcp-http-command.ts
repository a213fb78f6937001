// `rl-chatops mcp --http` and `--new-token NAME`: the MCP server over Streamable HTTP for agents that connect by URL,
// each person known by a bearer token whose hash is in the token file (default data/mcp-tokens).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { addToken, readTokens } from "../../adapters/mcp/bearer-tokens.ts";
import { serveAgentHttp } from "../../adapters/mcp/serve-agent-http.ts";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { UsageError, type CommandLine } from "./parse-command-line.ts";

/** Where the token hashes are kept unless --tokens says. */
export function tokensFileOf(line: CommandLine, dataDir: string): string {
  return line.options.tokens ? path.resolve(line.options.tokens) : path.join(dataDir, "mcp-tokens");
}

/** Makes a token for the person, keeps its hash, and prints the token once (stdout) with where its hash went. */
export function newToken(file: string, person: string): number {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = addToken(file, person);
  process.stdout.write(`${token}\n`);
  process.stderr.write(
    `rl-chatops mcp: a bearer token for ${person}; its hash is in ${file}. It is shown this once: give it to ${person} for their agent's Authorization header.\n`,
  );
  return 0;
}

function portOf(line: CommandLine): number {
  const value = line.options.port ?? "8765";
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new UsageError(
      `--port takes a port number from 0 to 65535 (0: any free one), e.g. rl-chatops mcp --http --port 8765.`,
    );
  return port;
}

/** Serves until SIGINT or SIGTERM, then closes every session and exits 0. */
export async function serveHttp(
  line: CommandLine,
  file: string,
  serverFor: (person: string) => Server,
  channel: string,
): Promise<number> {
  readTokens(file);
  const server = await serveAgentHttp({
    host: line.options.host ?? "127.0.0.1",
    port: portOf(line),
    tokens: () => readTokens(file),
    serverFor,
    warn: (text) => process.stderr.write(`rl-chatops mcp: ${text}\n`),
  });
  process.stderr.write(`rl-chatops mcp: serving ${server.url} in channel ${channel}, people from ${file}\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  return 0;
}
