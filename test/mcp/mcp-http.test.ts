// rl-chatops mcp --http, a real process with the SDK's own client: bearer tokens stored hashed and mapped to people
// whose own roles apply, 401 without detail, Origin and Host checks, the tools listed with their schemas, and
// elicitation over Streamable HTTP (accepted, declined, or impossible), with the person named in notice and audit.
import { readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { agentTools } from "../../adapters/mcp/agent-tools.ts";
import { COMMANDS } from "../../commands/index.ts";
import { botsPerTest, readDb } from "../helpers/bot-process.ts";
import { answerAll, mcpPerTest, newToken, noticesOf, textOf } from "../helpers/mcp-client.ts";
import { runCli } from "../helpers/run-cli.ts";

const bots = botsPerTest();
const mcp = mcpPerTest();

describe("rl-chatops mcp --http", () => {
  it("keeps tokens hashed, refuses without detail, and applies each person's own role", async () => {
    const { cwd, dataDir, env } = await bots.demoFolder({ RL_OPERATORS: "console:alice", RL_DEFAULT_ROLE: "read" });
    const file = path.join(cwd, "tokens");
    const alice = await newToken(cwd, "alice", file);
    const bob = await newToken(cwd, "bob", file);
    const stored = readFileSync(file, "utf8");
    expect(stored).not.toContain(alice);
    expect(stored).not.toContain(bob);
    expect(stored).toMatch(/^alice sha256:[0-9a-f]{64}\nbob sha256:[0-9a-f]{64}\n$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const { url, server } = await mcp.http(cwd, ["--tokens", file], env);
    expect(url.hostname).toBe("127.0.0.1");
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(initialize),
      });
    const wrong: Array<Record<string, string>> = [{}, { authorization: "Bearer rlmcp_not-a-token-anyone-has" }];
    for (const headers of [...wrong, { authorization: alice }]) {
      const refused = await post(headers);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe("Bearer");
      expect(await refused.text()).toBe("");
    }
    const foreign = await post({ authorization: `Bearer ${alice}`, origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    // fetch will not send another Host: a rebound name, as a browser would send it, through node:http.
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(url, { method: "POST", headers: { host: `evil.example:${url.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.end(JSON.stringify(initialize));
    });
    expect(rebound).toBe(403);
    // The server never shows a token: not in its output.
    expect(server.stderr()).not.toContain(alice);

    // bob may read, not operate; alice operates, confirming through her client.
    const bobs = await mcp.httpClient(url, bob);
    const refusedSelect = await bobs.callTool({ name: "rl_select_environment", arguments: { name: "arithmetic" } });
    expect(refusedSelect.isError).toBe(true);
    expect(refusedSelect.structuredContent).toMatchObject({ error: { code: "FORBIDDEN" } });
    expect(textOf(refusedSelect)).toContain("needs the operate permission; you have read");
    expect((await bobs.callTool({ name: "rl_list_environments", arguments: {} })).isError).toBeFalsy();
    const refusals = readDb(cwd, env, (db) => db.prepare("SELECT user_id, command, outcome, via FROM audit").all());
    expect(refusals).toEqual([{ user_id: "bob", command: "select", outcome: "refused", via: "mcp" }]);

    const shown: string[] = [];
    const alices = await mcp.httpClient(url, alice, answerAll("accept", shown));
    expect((await alices.listTools()).tools).toEqual(agentTools(COMMANDS));
    await alices.callTool({ name: "rl_select_environment", arguments: { name: "arithmetic" } });
    // Declined in her client, or asked of a client that cannot ask her: nothing starts.
    const declining = await mcp.httpClient(url, alice, answerAll("decline"));
    const declined = await declining.callTool({ name: "rl_start_training", arguments: {} });
    expect(declined.structuredContent, textOf(declined)).toMatchObject({ status: "declined", command: "/rl start" });
    const unasked = await (await mcp.httpClient(url, alice)).callTool({ name: "rl_start_training", arguments: {} });
    expect(unasked.structuredContent, textOf(unasked)).toMatchObject({
      error: { code: "NEEDS_CONFIRMATION" },
      status: "not_started",
    });
    expect(readDb(cwd, env, (db) => db.prepare("SELECT id FROM runs").all())).toEqual([]);
    // A session belongs to the person who opened it: bob's token with alice's session is no session of his.
    const session = (alices.transport as StreamableHTTPClientTransport).sessionId!;
    const hijack = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${bob}`,
        "mcp-session-id": session,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(hijack.status).toBe(404);
    const started = await alices.callTool({ name: "rl_start_training", arguments: {} });
    expect(started.structuredContent, textOf(started)).toMatchObject({ status: "running" });
    expect(shown[0]).toContain("Environment: arithmetic");
    const runs = readDb(cwd, env, (db) => db.prepare("SELECT created_by, channel FROM runs").all());
    expect(runs).toEqual([{ created_by: "alice", channel: "mcp" }]);
    // The team sees her agent: the run's notice in its channel and the audit log name her and the surface.
    const runId = (started.structuredContent as { run_id: string }).run_id;
    expect(await noticesOf(dataDir, runId)).toContain("Started by: alice through their agent");
    const audit = readDb(cwd, env, (db) => db.prepare("SELECT user_id, command, outcome, via FROM audit").all());
    expect(audit).toEqual(expect.arrayContaining([{ user_id: "alice", command: "start", outcome: "ok", via: "mcp" }]));
    // Another person's stop of alice's run is refused by the same ownership rule as in chat.
    const bobStop = await bobs.callTool({
      name: "rl_stop_training",
      arguments: { run: runId },
    });
    expect(bobStop.isError).toBe(true);

    // Ctrl-C ends the server in order.
    server.kill("SIGINT");
    expect(await server.ended).toEqual({ code: 0, signal: undefined });
  });

  it("keeps tokens in data/mcp-tokens unless --tokens names a file", async () => {
    const { cwd, dataDir } = await bots.demoFolder();
    const token = await newToken(cwd, "carol", path.join(dataDir, "mcp-tokens"));
    const made = await runCli(["mcp", "--new-token", "dave"], { cwd });
    expect(made.code).toBe(0);
    const stored = readFileSync(path.join(dataDir, "mcp-tokens"), "utf8");
    expect(stored).toMatch(/^carol sha256:[0-9a-f]{64}\ndave sha256:[0-9a-f]{64}\n$/);
    expect(stored).not.toContain(token);
  });
});
