// Approvals on the command line: exec --user acts as that person, so the asker's own approve is refused (the terminal's
// admin role notwithstanding) and another approver's starts the run.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killRunProcesses, waitFor } from "../helpers/bot-process.ts";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const dataDirs: string[] = [];
afterEach(() => {
  for (const dir of dataDirs.splice(0)) killRunProcesses(dir);
});

describe("rl-chatops exec --user and approvals", () => {
  it("holds alice's start for approval, refuses her own approve, and starts it on bob's", async () => {
    const cwd = tempDir();
    const dataDir = path.join(cwd, "data");
    dataDirs.push(dataDir);
    const env = {
      RL_LOG_LEVEL: "warn",
      RL_LOCKED_FIELDS: await demoLockedFields(cwd, { totalSteps: 200, stepSeconds: 0.5 }),
      RL_STOP_GRACE_SECONDS: "2",
      RL_APPROVE_WHEN: "always",
      RL_APPROVERS: "console:bob,console:alice",
    };
    const as = (user: string, text: string) => runCli(["exec", text, "--user", user, "--json"], { cwd, env });
    expect((await as("alice", "/rl select arithmetic")).code).toBe(0);

    const held = await as("alice", "/rl start");
    expect(held.code).toBe(0);
    const request = JSON.parse(held.stdout) as { approval_id: string; state: string; asked_by: string };
    expect(request).toMatchObject({ state: "pending", asked_by: "alice" });

    const own = await as("alice", `/rl approve ${request.approval_id}`);
    expect(own.code).toBe(1);
    expect(JSON.parse(own.stdout)).toMatchObject({ error: { code: "FORBIDDEN" } });

    const approved = await as("bob", `/rl approve ${request.approval_id}`);
    expect(approved.stderr).toBe("");
    expect(approved.code).toBe(0);
    const run = JSON.parse(approved.stdout) as { run_id: string; status: string; approved_by: string };
    expect(run).toMatchObject({ status: "running", approved_by: "bob", approval_id: request.approval_id });

    const replay = await as("bob", `/rl approve ${request.approval_id}`);
    expect(replay.code).toBe(1);
    expect(JSON.parse(replay.stdout)).toMatchObject({ error: { code: "CONFLICT" } });

    const runs = JSON.parse((await as("alice", "/rl runs")).stdout) as {
      runs: Array<{ run_id: string; started_by?: string }>;
    };
    expect(runs.runs.map((r) => r.run_id)).toEqual([run.run_id]);

    expect((await as("alice", `/rl stop ${run.run_id}`)).code).toBe(0);
    await waitFor(() => readLeaseHolder(dataDir) === undefined, "the background supervisor to let go of the folder");
  });
});
