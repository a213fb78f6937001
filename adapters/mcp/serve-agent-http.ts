// rl-chatops mcp --http: Streamable HTTP on this machine, one MCP session per client, each bound to the person its
// bearer token stands for. Refused without detail: a foreign Origin or Host (403), no or an unknown token (401).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { personOf } from "./bearer-tokens.ts";
import { refusedOrigin } from "./check-http-origin.ts";

export interface AgentHttpOptions {
  host: string;
  port: number;
  /** The token hashes and their people, read for each request so a removed line takes effect at once. */
  tokens: () => ReadonlyMap<string, string>;
  /** A new MCP server acting as `person`. */
  serverFor: (person: string) => Server;
  /** A line for the operator (never a token). */
  warn: (line: string) => void;
}

export interface AgentHttpServer {
  url: string;
  close(): Promise<void>;
}

interface Session {
  person: string;
  transport: StreamableHTTPServerTransport;
}

function refuse(res: ServerResponse, status: 401 | 403 | 404): void {
  res.writeHead(status, status === 401 ? { "www-authenticate": "Bearer" } : {}).end();
}

export async function serveAgentHttp(options: AgentHttpOptions): Promise<AgentHttpServer> {
  const sessions = new Map<string, Session>();
  let served = { host: options.host, port: options.port };

  const authenticate = (req: IncomingMessage): string | undefined => {
    try {
      return personOf(req.headers.authorization, options.tokens());
    } catch (err) {
      options.warn(`bearer tokens unreadable, every request refused: ${(err as Error).message}`);
      return undefined;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") return refuse(res, 404);
    if (refusedOrigin(req.headers, served)) return refuse(res, 403);
    const person = authenticate(req);
    if (!person) return refuse(res, 401);
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      // Another person's session is no session of this one's.
      if (!session || session.person !== person) return refuse(res, 404);
      return session.transport.handleRequest(req, res);
    }
    // No session yet: the transport takes only an initialize request here (400 otherwise).
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, { person, transport }),
      onsessionclosed: (sessionId) => void sessions.delete(sessionId),
    });
    const server = options.serverFor(person);
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (transport.sessionId === undefined) await server.close();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      options.warn(`request failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => resolve());
  });
  served = { host: options.host, port: (http.address() as AddressInfo).port };
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${served.port}/mcp`,
    async close() {
      await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
