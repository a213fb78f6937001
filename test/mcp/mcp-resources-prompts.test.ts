// rl-chatops mcp's resources and prompt, with the SDK's own client over stdio and Streamable HTTP as real processes:
// the channel's runs listed, a run's status, logs and samples read under the person's permissions exactly as the /rl
// read commands are, a clear error for an unknown run or a URI that is no resource, and the watch-run prompt.
import { readFileSync } from "node:fs";
import path from "node:path";
import { McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { RESOURCE_NOT_FOUND, RESOURCE_TEMPLATES } from "../../adapters/mcp/agent-resources.ts";
import { WATCH_RUN_PROMPT } from "../../adapters/mcp/watch-run-prompt.ts";
import { PACKAGE_ROOT } from "../../src/package-root.ts";
import { botsPerTest } from "../helpers/bot-process.ts";
import { answerAll, mcpPerTest, newToken } from "../helpers/mcp-client.ts";

const bots = botsPerTest();
const mcp = mcpPerTest();

/** The JSON of a resource read. */
async function read(client: Client, uri: string): Promise<Record<string, unknown>> {
  const result: ReadResourceResult = await client.readResource({ uri });
  expect(result.contents).toHaveLength(1);
  const [content] = result.contents;
  expect(content).toMatchObject({ uri, mimeType: "application/json" });
  return JSON.parse((content as { text: string }).text) as Record<string, unknown>;
}

/** The JSON-RPC error a resource read is refused with. */
async function refusal(client: Client, uri: string): Promise<McpError> {
  const error: unknown = await client.readResource({ uri }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, uri).toBeInstanceOf(McpError);
  return error as McpError;
}

/** The text of a watch-run prompt, fetched as an agent's client does. */
async function watchPrompt(client: Client, args: Record<string, string>): Promise<string> {
  const { messages } = await client.getPrompt({ name: "watch-run", arguments: args });
  expect(messages).toHaveLength(1);
  expect(messages[0]).toMatchObject({ role: "user", content: { type: "text" } });
  return (messages[0]!.content as { text: string }).text;
}

describe("rl-chatops mcp resources and prompt", () => {
  it("lists the channel's runs and reads a run's status, logs and samples, as the person may; watch-run", async () => {
    const { cwd, env } = await bots.demoFolder({ RL_OPERATORS: "console:alice", RL_DEFAULT_ROLE: "none" });
    // Over stdio the local person (the terminal's admin) starts a run in the channel the agents act in.
    const { client: local } = await mcp.stdio(cwd, { env, args: ["--user", "carol"], elicit: answerAll("accept") });
    await local.callTool({ name: "rl_select_environment", arguments: { name: "arithmetic" } });
    const started = await local.callTool({ name: "rl_start_training", arguments: {} });
    const runId = (started.structuredContent as { run_id: string }).run_id;
    expect(runId).toBeTruthy();

    const { resourceTemplates } = await local.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "rl://runs/{run}/status",
      "rl://runs/{run}/logs",
      "rl://runs/{run}/samples",
      "rl://runs/{run}/logs/{component}",
    ]);
    expect(resourceTemplates).toEqual(RESOURCE_TEMPLATES);
    const { resources, nextCursor } = await local.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["rl://runs", `rl://runs/${runId}/status`]);
    expect(resources[1]!.title).toBe(`Run ${runId}: arithmetic · running`);
    expect(nextCursor).toBeUndefined();

    // Each read is the read tool's JSON.
    expect(await read(local, "rl://runs")).toMatchObject({ runs: [{ run_id: runId, created_by: "carol" }], total: 1 });
    expect(await read(local, `rl://runs/${runId}/status`)).toMatchObject({ run_id: runId, environment: "arithmetic" });
    expect(await read(local, `rl://runs/${runId}/logs`)).toMatchObject({ run_id: runId, component: "trainer" });
    expect(await read(local, `rl://runs/${runId}/logs/trainer`)).toMatchObject({ component: "trainer" });
    expect(await read(local, `rl://runs/${runId}/samples`)).toMatchObject({ run_id: runId });

    // An unknown run is the spec's "resource not found", with the /rl command's words; a URI that is no resource, or
    // a process the run does not have, says what is wrong.
    const unknown = await refusal(local, "rl://runs/nosuchrun/status");
    expect(unknown.code).toBe(RESOURCE_NOT_FOUND);
    expect(unknown.message).toContain('No run "nosuchrun". See /rl runs.');
    const elsewhere = await refusal(local, "rl://experiments/1");
    expect(elsewhere.code).toBe(-32602);
    expect(elsewhere.message).toContain("is no resource of this server");
    expect(elsewhere.message).toContain("rl://runs/{run}/status");
    expect((await refusal(local, `rl://runs/${runId}/logs/reward`)).message).toMatch(/component/);
    expect((await refusal(local, `rl://runs/${runId}/status/trainer`)).message).toContain("has a part after /status");

    // Over HTTP each person's own role applies: alice (operate) reads; bob (the default role, none) is refused, by
    // the same rule and words as /rl status.
    const file = path.join(cwd, "tokens");
    const alice = await newToken(cwd, "alice", file);
    const bob = await newToken(cwd, "bob", file);
    const { url } = await mcp.http(cwd, ["--tokens", file], env);
    const alices = await mcp.httpClient(url, alice);
    expect((await alices.listResources()).resources.map((r) => r.uri)).toEqual(resources.map((r) => r.uri));
    expect(await read(alices, `rl://runs/${runId}/status`)).toMatchObject({ run_id: runId });
    const bobs = await mcp.httpClient(url, bob);
    const forbidden = await refusal(bobs, `rl://runs/${runId}/status`);
    expect(forbidden.code).toBe(-32600);
    expect(forbidden.message).toContain("needs the read permission; you have none");
    expect(forbidden.data).toMatchObject({ code: "FORBIDDEN" });
    await expect(bobs.listResources()).rejects.toThrow(/needs the read permission/);

    // The watch-run prompt, over both transports: check, report, and act on nothing unasked, as the skill says.
    expect((await local.listPrompts()).prompts).toEqual([WATCH_RUN_PROMPT]);
    const text = await watchPrompt(local, { run: runId });
    expect(text).toContain(`Watch training run ${runId}`);
    expect(text).toContain(`rl_check_status (run "${runId}"), or by reading rl://runs/${runId}/status`);
    expect(text).toContain("each time I ask again");
    expect(text).toContain("never restart or resume this run");
    expect(await watchPrompt(alices, { run: runId, every: "30 minutes" })).toContain("Check again every 30 minutes");
    const skill = readFileSync(path.join(PACKAGE_ROOT, "examples/agent-skill/SKILL.md"), "utf8");
    expect(skill).toContain("`watch-run` prompt");
    expect(skill).toContain("never restart or resume it unless they ask");
    await expect(local.getPrompt({ name: "watch-run", arguments: {} })).rejects.toThrow(/watch-run needs the run's id/);
    await expect(local.getPrompt({ name: "watch-run", arguments: { run: "a b" } })).rejects.toThrow(/1 to 64 letters/);
    await expect(local.getPrompt({ name: "restart-run" })).rejects.toThrow(/no prompt named "restart-run"/);
  });
});
