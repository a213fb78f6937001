// rl-chatops mcp over stdio, on real processes with the SDK's own client: the registry's tools listed with their
// schemas, every tool called through the background supervisor, confirmations through elicitation (accepted, declined,
// or impossible), bad arguments as tool errors, and no second run when the owner dies after the person's accept.
import { userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { agentTools } from "../../adapters/mcp/agent-tools.ts";
import { toolCommands, toolParameters } from "../../adapters/chat/build-tools.ts";
import { COMMANDS } from "../../commands/index.ts";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { botsPerTest, readDb, waitFor } from "../helpers/bot-process.ts";
import { answerAll, mcpPerTest, noticesOf, textOf } from "../helpers/mcp-client.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const bots = botsPerTest();
const mcp = mcpPerTest();

type Row = { id: string; status: string; created_by: string };
const runsIn = (cwd: string, env: Record<string, string>): Row[] =>
  readDb(cwd, env, (db) => db.prepare("SELECT id, status, created_by FROM runs").all() as Row[]) ?? [];

describe("rl-chatops mcp over stdio", () => {
  it("lists the registry's chat tools, with chat mode's names and schemas and annotations from its flags", async () => {
    const { cwd, env } = await bots.demoFolder();
    const { client } = await mcp.stdio(cwd, { env });
    const { tools } = await client.listTools();
    const commands = toolCommands(COMMANDS);
    expect(tools.map((t) => t.name)).toEqual(commands.map((c) => c.toolName));
    expect(tools).toEqual(agentTools(COMMANDS));
    for (const command of commands) {
      const tool = tools.find((t) => t.name === command.toolName)!;
      expect(tool.inputSchema).toEqual({ type: "object", ...toolParameters(command) });
      expect(tool.title).toBe(command.summary);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(byName.rl_check_status).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.rl_edit_config).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(byName.rl_start_training).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
  });

  it("refuses bad arguments with a tool error naming the field, and keeps serving", async () => {
    const { cwd, env } = await bots.demoFolder();
    const { client } = await mcp.stdio(cwd, { env });
    const bad = await client.callTool({ name: "rl_edit_config", arguments: { field: 3, value: "x" } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/field: .*expected string/);
    expect(bad.structuredContent).toMatchObject({ error: { code: "USAGE" } });
    const unknown = await client.callTool({ name: "rl_frobnicate", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ error: { code: "UNKNOWN_TOOL" } });
    expect((unknown.structuredContent as { error: { message: string } }).error.message).toContain(
      'no tool named "rl_frobnicate"',
    );
    const envs = await client.callTool({ name: "rl_list_environments", arguments: {} });
    expect(envs.isError).toBeFalsy();
    const names = (envs.structuredContent as { environments: Array<{ name: string }> }).environments.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(["arithmetic", "letters", "parity"]));
  });

  it("calls every tool; a start accepted through elicitation runs, declined ones start nothing", async () => {
    const { cwd, dataDir, env } = await bots.demoFolder();
    const shown: string[] = [];
    let answer: "accept" | "decline" = "accept";
    const { client } = await mcp.stdio(cwd, {
      env,
      args: ["--user", "alice"],
      elicit: (params) => answerAll(answer, shown)(params),
    });
    const called = new Set<string>();
    const expectErrors = new Set(["rl_resume_training", "rl_fork_training", "rl_compare_runs"]);
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      called.add(name);
      const result = await client.callTool({ name, arguments: args });
      if (result.isError && !expectErrors.has(name)) throw new Error(`${name} failed: ${textOf(result)}`);
      return { result, text: textOf(result), data: result.structuredContent as Record<string, unknown> };
    };
    expect((await call("rl_list_environments")).result.isError).toBeFalsy();
    expect((await call("rl_select_environment", { name: "arithmetic" })).data).toMatchObject({
      environment: "arithmetic",
    });
    // A number for a value, as models send it, is the text it stands for (chat mode's rule).
    expect((await call("rl_edit_config", { field: "num_choices", value: 3 })).result.isError).toBeFalsy();
    expect((await call("rl_get_current_config")).text).toContain("num_choices");
    expect((await call("rl_reset_config", { field: "num_choices" })).result.isError).toBeFalsy();
    expect((await call("rl_check_api_keys")).result.isError).toBeFalsy();

    const started = await call("rl_start_training");
    expect(started.data).toMatchObject({ status: "running", environment: "arithmetic" });
    const runId = String(started.data.run_id);
    expect(shown[0]).toContain("/rl start");
    expect(shown[0]).toContain("Environment: arithmetic");
    expect(runsIn(cwd, env)).toEqual([{ id: runId, status: "running", created_by: "alice" }]);
    // The team sees the agent: the run's notice in its channel, and the audit log, name the person and the surface.
    expect(await noticesOf(dataDir, runId)).toContain("Started by: alice through their agent");
    const audit = readDb(cwd, env, (db) => db.prepare("SELECT user_id, command, outcome, via FROM audit").all());
    expect(audit).toEqual(
      expect.arrayContaining([
        { user_id: "alice", command: "confirm", outcome: "ok", via: "mcp" },
        { user_id: "alice", command: "start", outcome: "ok", via: "mcp" },
      ]),
    );

    expect((await call("rl_check_status", { run: runId })).data).toMatchObject({ run_id: runId });
    expect((await call("rl_list_runs")).text).toContain(runId);
    expect((await call("rl_get_logs", { run: runId, component: "trainer" })).result.isError).toBeFalsy();
    expect((await call("rl_get_results", { run: runId })).result.isError).toBeFalsy();
    expect((await call("rl_list_checkpoints", { run: runId })).result.isError).toBeFalsy();
    expect((await call("rl_show_samples", { run: runId })).result.isError).toBeFalsy();
    expect((await call("rl_notify")).result.isError).toBeFalsy();
    expect((await call("rl_budget")).result.isError).toBeFalsy();
    // Refused with the reason by the stack or the run's state: an answer, not a crash.
    expect((await call("rl_resume_training", { run: runId })).result.isError).toBe(true);
    expect((await call("rl_fork_training", { run: runId })).result.isError).toBe(true);
    expect((await call("rl_compare_runs", { run: runId })).data).toMatchObject({ error: { code: "USAGE" } });

    answer = "decline";
    for (const [name, args] of [
      ["rl_rerun_training", { run: runId }],
      ["rl_start_sweep", { grid: "num_choices=3,4" }],
      // A local endpoint needs no key; declined, nothing is called.
      ["rl_test_inference", { base_url: "http://127.0.0.1:9/v1" }],
    ] as const) {
      const declined = await call(name, args);
      expect(declined.data, name).toMatchObject({ status: "declined" });
      expect(declined.text).toContain("nothing was started");
    }
    expect(runsIn(cwd, env)).toHaveLength(1);

    answer = "accept";
    const stopped = await call("rl_stop_training", { run: runId });
    expect(stopped.result.isError).toBeFalsy();
    await waitFor(() => runsIn(cwd, env)[0]?.status === "stopped", "the run to stop");
    expect([...called].sort()).toEqual(
      toolCommands(COMMANDS)
        .map((c) => c.toolName)
        .sort(),
    );
  });

  it("starts nothing for a client without elicitation, and says how to confirm", async () => {
    // Run from another folder, as an agent's client does, finding the data folder by RL_DATA_DIR; the local person
    // is the machine's user (here made carol by RL_LOCAL_PEOPLE; $USER says nothing) with the terminal's admin role,
    // whatever RL_DEFAULT_ROLE says.
    const people = { RL_LOCAL_PEOPLE: `${userInfo().username}=carol` };
    const { cwd, dataDir, env } = await bots.demoFolder({ RL_DEFAULT_ROLE: "none", ...people });
    const { client } = await mcp.stdio(tempDir(), {
      env: { ...env, RL_DATA_DIR: dataDir, USER: "mallory" },
      args: ["--channel", "lab"],
    });
    await client.callTool({ name: "rl_select_environment", arguments: { name: "parity" } });
    const result = await client.callTool({ name: "rl_start_training", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent, textOf(result)).toMatchObject({
      error: { code: "NEEDS_CONFIRMATION" },
      status: "not_started",
    });
    const { message } = (result.structuredContent as { error: { message: string } }).error;
    expect(message).toContain("Nothing was started");
    expect(message).toContain('rl-chatops exec "/rl start" --channel lab');
    expect(runsIn(cwd, env)).toEqual([]);
    const audit = readDb(cwd, env, (db) => db.prepare("SELECT user_id, command, channel FROM audit").all());
    expect(audit).toEqual([{ user_id: "carol", command: "select", channel: "lab" }]);
  });

  it.each([
    ["confirmation-claimed", []],
    ["run-created", ["lost"]],
    // The run is up when its owner dies: the next owner finds it and keeps it; the retried accept starts none.
    ["committed:running", ["running"]],
  ])(
    "leaves one run or none, never two, when the owner is SIGKILLed at %s after the person's accept",
    async (point, statuses) => {
      const { cwd, dataDir, env } = await bots.demoFolder();
      const { client } = await mcp.stdio(cwd, { env: { ...env, RL_CRASH_AT: point }, elicit: answerAll("accept") });
      await client.callTool({ name: "rl_select_environment", arguments: { name: "arithmetic" } });
      const first = readLeaseHolder(dataDir)!.pid;
      const result = await client.callTool({ name: "rl_start_training", arguments: {} });
      // The owner that took the accept died; mcp asked the next one, which found the prompt answered once already.
      expect(readLeaseHolder(dataDir)?.pid, textOf(result)).not.toBe(first);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("already answered");
      expect(textOf(result)).toContain("Check rl_list_runs");
      expect(runsIn(cwd, env).map((r) => r.status)).toEqual(statuses);
    },
  );

  it("holds an agent's accepted start for an approver in the team's channel, and /rl audit marks the agent", async () => {
    const { cwd, env } = await bots.demoFolder({ RL_APPROVE_WHEN: "always", RL_APPROVERS: "console:bob" });
    const { client } = await mcp.stdio(cwd, { env, args: ["--user", "alice"], elicit: answerAll("accept") });
    await client.callTool({ name: "rl_select_environment", arguments: { name: "arithmetic" } });
    const held = await client.callTool({ name: "rl_start_training", arguments: {} });
    expect(held.structuredContent, textOf(held)).toMatchObject({ state: "pending", asked_by: "alice" });
    expect(runsIn(cwd, env)).toEqual([]);
    const id = String((held.structuredContent as { approval_id: string }).approval_id);
    const approved = await runCli(["exec", `/rl approve ${id}`, "--channel", "mcp", "--user", "bob"], { cwd, env });
    expect(approved.code, approved.stderr).toBe(0);
    expect(runsIn(cwd, env)).toEqual([expect.objectContaining({ status: "running", created_by: "alice" })]);
    const created = readDb(cwd, env, (db) => db.prepare("SELECT created_via FROM runs").get());
    expect(created).toEqual({ created_via: "mcp" });
    const audit = await runCli(["exec", "/rl audit"], { cwd, env });
    expect(audit.stdout).toMatch(/console:mcp {2}alice \(agent\) {2}start {2}ok/);
    expect(audit.stdout).toMatch(/console:mcp {2}bob {2}approve {2}ok/);
  });
});
