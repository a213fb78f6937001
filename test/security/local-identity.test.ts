// exec and mcp over stdio act as the machine's user running them: --user names another person only when the bot's
// settings let that user act for others (RL_LOCAL_ACT_FOR_OTHERS); RL_LOCAL_PEOPLE makes the machine's user a console
// person. So whoever can run exec as the data folder's owner cannot approve as someone else.
import { userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { botsPerTest } from "../helpers/bot-process.ts";
import { mcpPerTest, textOf } from "../helpers/mcp-client.ts";
import { runCli } from "../helpers/run-cli.ts";

const bots = botsPerTest();
const mcp = mcpPerTest();
const me = userInfo().username;

describe("who exec and mcp act as on this machine", () => {
  it("refuses --user for another person unless the settings allow it, and acts as the mapped person", async () => {
    // Nobody may act for others here (the suite allows it for its tests' sake).
    const { cwd, env } = await bots.demoFolder({
      RL_APPROVE_WHEN: "always",
      RL_APPROVERS: "console:bob",
      RL_LOCAL_ACT_FOR_OTHERS: "",
      RL_STOP_GRACE_SECONDS: "2",
    });
    const exec = (text: string, more: string[] = [], extra: Record<string, string> = {}) =>
      runCli(["exec", text, "--json", ...more], { cwd, env: { ...env, USER: "bob", ...extra } });
    expect((await exec("/rl select arithmetic")).code).toBe(0);
    const held = await exec("/rl start");
    const request = JSON.parse(held.stdout) as { approval_id: string; asked_by: string };
    // $USER says bob; the machine's user is who asked.
    expect(request.asked_by).toBe(me);

    const posing = await exec(`/rl approve ${request.approval_id}`, ["--user", "bob"]);
    expect(posing.code).toBe(1);
    const refusal = JSON.parse(posing.stdout) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe("FORBIDDEN");
    expect(refusal.error.message).toContain(`--user bob is refused: on this machine you are ${me}`);
    expect(refusal.error.message).toContain(`RL_LOCAL_ACT_FOR_OTHERS=${me}`);
    // Acting as themself they are no approver.
    const own = await exec(`/rl approve ${request.approval_id}`);
    expect(JSON.parse(own.stdout)).toMatchObject({ error: { code: "FORBIDDEN" } });

    // The same over mcp stdio: a call as bob is refused before it runs.
    const { client } = await mcp.stdio(cwd, { env: { ...env, RL_APPROVERS: "console:bob" }, args: ["--user", "bob"] });
    const call = await client.callTool({ name: "rl_list_runs", arguments: {} });
    expect(call.isError).toBe(true);
    expect(textOf(call)).toContain(`--user bob is refused: on this machine you are ${me}`);
    await client.close();
    // Its supervisor stays a while: stopped, so the next exec starts one with the new settings.
    expect((await runCli(["stop"], { cwd, env })).code).toBe(0);

    // The settings make this machine's user bob: their approve is bob's, and the run starts.
    const approved = await exec(`/rl approve ${request.approval_id}`, [], { RL_LOCAL_PEOPLE: `${me}=bob` });
    expect(approved.stderr).toBe("");
    const run = JSON.parse(approved.stdout) as { run_id: string; approved_by: string };
    expect(run.approved_by).toBe("bob");
    expect((await exec(`/rl stop ${run.run_id}`)).code).toBe(0);
  });
});
