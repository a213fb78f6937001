// The SDK's own MCP client against the real `rl-chatops mcp` (built, in a child process): everything a test starts
// (the mcp process, the background supervisor it started, the runs) is ended after the test, however it ends.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect } from "vitest";
import { killBots, killRunProcesses, spawnBot, supervisorsIn, waitFor, type BotProcess } from "./bot-process.ts";
import { CLI, runCli } from "./run-cli.ts";

/** How the test's person answers a prompt; absent: the client declares no elicitation. */
export type Elicit = (request: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;

export interface McpClientOptions {
  elicit?: Elicit;
  /** More of `rl-chatops mcp`'s command line (--channel, --user). */
  args?: string[];
  env?: Record<string, string>;
}

export interface StdioAgent {
  client: Client;
  /** What the mcp process wrote on stderr so far. */
  stderr(): string;
}

/** A client that declares elicitation only when the test answers prompts. */
export function newClient(elicit: Elicit | undefined): Client {
  const client = new Client(
    { name: "rl-chatops-test", version: "1" },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  return client;
}

export interface McpPerTest {
  /** `rl-chatops mcp` over stdio in `cwd`, as a local agent's client starts it. */
  stdio(cwd: string, options?: McpClientOptions): Promise<StdioAgent>;
  /**
   * `rl-chatops mcp --http --port 0 ARGS` in `cwd` (ended after the test): its URL once it serves, and the process.
   */
  http(cwd: string, args: string[], env?: Record<string, string>): Promise<{ url: URL; server: BotProcess }>;
  /** The SDK's client over Streamable HTTP with this bearer token. */
  httpClient(url: URL, token: string, elicit?: Elicit): Promise<Client>;
  /** Folders whose supervisors and runs are ended after the test (stdio adds its own). */
  folders: string[];
  /** Clients closed after the test. */
  clients: Client[];
}

/** Call at a test file's top level. */
export function mcpPerTest(): McpPerTest {
  const clients: Client[] = [];
  const folders: string[] = [];
  const servers: BotProcess[] = [];
  afterEach(async () => {
    await killBots(servers);
    // Closing a stdio client ends its mcp process (stdin closed, then SIGTERM, then SIGKILL).
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    for (const cwd of folders.splice(0)) {
      for (const pid of supervisorsIn(cwd)) process.kill(pid, "SIGKILL");
      try {
        killRunProcesses(path.join(cwd, "data"));
      } catch {
        // No database was made.
      }
    }
  });
  return {
    clients,
    folders,
    async stdio(cwd, options = {}) {
      if (!folders.includes(cwd)) folders.push(cwd);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", ...(options.args ?? [])],
        cwd,
        // The supervisor it starts stays between calls (and is killed after the test) rather than one being started
        // for each call, as the suite's RL_IDLE_EXIT_MINUTES=0 would.
        env: {
          ...(process.env as Record<string, string>),
          RL_LOG_LEVEL: "silent",
          RL_IDLE_EXIT_MINUTES: "10",
          ...options.env,
        },
        stderr: "pipe",
      });
      let err = "";
      transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
      const client = newClient(options.elicit);
      clients.push(client);
      await client.connect(transport);
      return { client, stderr: () => err };
    },
    async http(cwd, args, env = {}) {
      if (!folders.includes(cwd)) folders.push(cwd);
      const server = spawnBot(
        cwd,
        { RL_IDLE_EXIT_MINUTES: "10", ...env },
        { args: ["mcp", "--http", "--port", "0", ...args] },
      );
      servers.push(server);
      const url = await waitFor(() => /serving (http:\S+)/.exec(server.stderr())?.[1], "mcp --http to serve");
      return { url: new URL(url), server };
    },
    async httpClient(url, token, elicit) {
      const client = newClient(elicit);
      clients.push(client);
      const headers = { Authorization: `Bearer ${token}` };
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
      return client;
    },
  };
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.find((c) => c.type === "text")?.text ?? "";
}

/** Answers every prompt the same way, recording the messages it was shown. */
export function answerAll(action: ElicitResult["action"], shown: string[] = []): Elicit {
  return (params) => {
    shown.push(params.message);
    return action === "accept" ? { action, content: { confirm: true } } : { action };
  };
}

/** `rl-chatops mcp --new-token PERSON --tokens FILE` in `cwd`: the token it shows once. */
export async function newToken(cwd: string, person: string, file: string): Promise<string> {
  const made = await runCli(["mcp", "--new-token", person, "--tokens", file], { cwd });
  expect(made.code, made.stderr).toBe(0);
  expect(made.stderr).toContain(`a bearer token for ${person}`);
  return made.stdout.trim();
}

/** The console channels' notices (data/notices.log) once the run's first one is in. */
export function noticesOf(dataDir: string, runId: string): Promise<string> {
  const file = path.join(dataDir, "notices.log");
  return waitFor(() => {
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    return text.includes(runId) && text;
  }, `run ${runId}'s notice`);
}
