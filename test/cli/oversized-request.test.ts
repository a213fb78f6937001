// A request far over the limits (a 100 KB command), from each client of the real bot: exec, an agent's MCP client,
// and a client writing straight to the exec socket. Each is told its length and the limit; nothing runs.
import { existsSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { MAX_REQUEST_BYTES } from "../../src/values/input-limits.ts";
import { supervisedFoldersPerTest, waitFor } from "../helpers/bot-process.ts";
import { mcpPerTest, textOf } from "../helpers/mcp-client.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const folders = supervisedFoldersPerTest();
const mcp = mcpPerTest();

const HUGE = "x".repeat(100_000);

/** Sends one raw line on the socket; the lines the bot answers with. */
function askRaw(socketPath: string, line: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let text = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${line}\n`));
    socket.on("data", (d: string) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => resolve(text.split("\n").filter(Boolean)));
  });
}

describe("a 100 KB request", () => {
  it("exec says its length and the limit, and starts nothing", async () => {
    const cwd = tempDir("rl-huge-");
    folders.push(cwd);
    const command = `/rl set label ${HUGE}`;
    const out = await runCli(["exec", command, "--json"], { cwd });
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout)).toEqual({
      error: {
        code: "USAGE",
        message: `That command is ${command.length} characters long; the limit is 8000. Shorten it.`,
        details: { length: command.length, limit: 8000 },
      },
    });
    const plain = await runCli(["exec", command], { cwd });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain(`That command is ${command.length} characters long; the limit is 8000.`);
    // Refused before an owner was looked for: no supervisor was started for it.
    expect(existsSync(path.join(cwd, "data", "bot.pid"))).toBe(false);
  });

  it("an agent's tool call and a raw socket line say their length and the limit; the bot serves on", async () => {
    const cwd = tempDir("rl-huge-");
    const { client } = await mcp.stdio(cwd);
    const huge = await client.callTool({ name: "rl_edit_config", arguments: { field: "label", value: HUGE } });
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toContain("The arguments are 100,015 characters long in all; the limit is 8,000.");
    expect(huge.structuredContent).toMatchObject({ error: { code: "USAGE" }, details: { length: 100_015 } });

    // The supervisor the agent's server started answers a client that writes more than a line may hold.
    const envs = await client.callTool({ name: "rl_list_environments", arguments: {} });
    expect(envs.isError).toBeFalsy();
    const holder = await waitFor(() => readLeaseHolder(path.join(cwd, "data")), "the supervisor's pid file");
    const line = JSON.stringify({ text: `/rl set label ${HUGE}`.repeat(2) });
    const [ack, answer] = await askRaw(holder.socket!, line);
    expect(ack).toBe('{"ack":true}');
    const response = JSON.parse(answer!) as { ok: boolean; code: string; rendered: string };
    expect(response).toMatchObject({ ok: false, code: "USAGE" });
    expect(response.rendered).toBe(
      `The request is ${Buffer.byteLength(line).toLocaleString("en")} bytes long; the limit is ${MAX_REQUEST_BYTES.toLocaleString("en")} (a command is at most 8,000 characters). Nothing was run; shorten it.`,
    );
    // Within the line's limit, the command's own limit answers.
    const [, within] = await askRaw(holder.socket!, JSON.stringify({ text: `/rl set label ${HUGE.slice(0, 9000)}` }));
    expect((JSON.parse(within!) as { rendered: string }).rendered).toContain("characters long; the limit is 8000");
    const after = await client.callTool({ name: "rl_list_environments", arguments: {} });
    expect(after.isError).toBeFalsy();
  });
});
