// Approvals on the command line: exec --user acts as that person, so the asker's own approve is refused (the terminal's
// admin role notwithstanding), another approver's starts the run, an expired request does nothing; the closed request
// is printed among the notices.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { botsPerTest, waitFor } from "../helpers/bot-process.ts";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const { dataDirs, demoFolder } = botsPerTest();

/** A data folder on the demo stack where every start needs approval, arithmetic selected; `as` runs exec --user. */
async function approvalFolder(settings: Record<string, string>) {
  const { cwd, dataDir, env } = await demoFolder({ RL_APPROVE_WHEN: "always", ...settings });
  const as = (user: string, text: string) => runCli(["exec", text, "--user", user, "--json"], { cwd, env });
  expect((await as("alice", "/rl select arithmetic")).code).toBe(0);
  return { cwd, dataDir, env, as };
}

describe("rl-chatops exec --user and approvals", () => {
  it("holds alice's start for approval, refuses her own approve, and starts it on bob's", async () => {
    const { cwd, dataDir, env, as } = await approvalFolder({
      RL_STOP_GRACE_SECONDS: "2",
      RL_APPROVERS: "console:bob,console:alice",
    });

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

    // The console has no message to edit: the closed request is printed among the notices, once.
    await waitFor(async () => {
      const notices = (await runCli(["notices"], { cwd, env })).stdout;
      return notices.includes(`Approved by bob at`) && notices.includes("Approved: /rl start");
    }, "the closed request among the notices");

    const runs = JSON.parse((await as("alice", "/rl runs")).stdout) as {
      runs: Array<{ run_id: string; started_by?: string }>;
    };
    expect(runs.runs.map((r) => r.run_id)).toEqual([run.run_id]);

    expect((await as("alice", `/rl stop ${run.run_id}`)).code).toBe(0);
    await waitFor(() => readLeaseHolder(dataDir) === undefined, "the background supervisor to let go of the folder");
  });

  it("will not start with an approver or a rule it cannot know, naming the setting", async () => {
    const cwd = tempDir();
    dataDirs.push(path.join(cwd, "data"));
    for (const [setting, env, message] of [
      ["RL_APPROVERS", { RL_APPROVE_WHEN: "always", RL_APPROVERS: "alice" }, 'RL_APPROVERS has a bad value: "alice"'],
      [
        "RL_APPROVERS",
        { RL_APPROVE_WHEN: "always", RL_APPROVERS: "slack:role:leads" },
        "RL_APPROVERS has a bad value: only Discord has roles",
      ],
      ["RL_APPROVE_WHEN", { RL_APPROVE_WHEN: "steps>1000", RL_APPROVERS: "console:bob" }, "RL_APPROVE_WHEN has a bad"],
    ] as const) {
      const out = await runCli(["exec", "/rl status"], { cwd, env: { RL_LOG_LEVEL: "warn", ...env } });
      expect(out.code, setting).not.toBe(0);
      expect(out.stdout + out.stderr).toContain(message);
    }
  });

  it("does nothing for a request that expired, and prints that it expired", async () => {
    // Three seconds (0.05 minutes): the test waits them out on the real clock, past the expiry the request gives.
    const { cwd, dataDir, env, as } = await approvalFolder({
      RL_APPROVERS: "console:bob",
      RL_APPROVAL_TTL_MINUTES: "0.05",
    });
    const held = await as("alice", "/rl start");
    const request = JSON.parse(held.stdout) as { approval_id: string; state: string; expires_at: string };
    expect(request.state).toBe("pending");

    await new Promise((resolve) => setTimeout(resolve, Date.parse(request.expires_at) - Date.now() + 500));
    const late = await as("bob", `/rl approve ${request.approval_id}`);
    expect(late.code).toBe(1);
    const error = (JSON.parse(late.stdout) as { error: { code: string; message: string } }).error;
    expect(error).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("expired at") });
    const runs = JSON.parse((await as("alice", "/rl runs")).stdout) as { runs: unknown[] };
    expect(runs.runs).toEqual([]);
    await waitFor(
      async () => (await runCli(["notices"], { cwd, env })).stdout.includes("Expired: /rl start"),
      "the expired request among the notices",
    );
    await waitFor(() => readLeaseHolder(dataDir) === undefined, "the background supervisor to let go of the folder");
  });
});
