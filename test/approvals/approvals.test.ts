// Approvals through the dispatcher on real services: another approver starts the run, the asker never can, once,
// before expiry, across a restart; the settings refuse people and rules the bot cannot know.
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { answer } from "../helpers/confirm.ts";
import { tempDir } from "../helpers/test-services.ts";
import { createApprovalCommands } from "./approval-commands.ts";

const slack = { platform: "slack", workspace: "T1", channel: "C1" };
const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

let t = 1_700_000_000_000;
const BASE = {
  RL_LOG_LEVEL: "silent",
  RL_OPERATORS: "slack:UALICE,slack:UBOB",
  RL_ADMINS: "slack:UADMIN",
  RL_APPROVE_WHEN: "steps>=1000,env=costly",
  RL_APPROVERS: "slack:UBOB,slack:UADMIN,console:carol",
  RL_APPROVAL_TTL_MINUTES: "60",
};
function services(dir = tempDir(), env: Record<string, string> = {}): Services {
  const s = createServices(loadConfig({ ...BASE, ...env }, dir), { now: () => t });
  opened.push(s);
  return s;
}

const { commands, started } = createApprovalCommands();

const people = {
  alice: { id: "UALICE", name: "alice" },
  bob: { id: "UBOB", name: "bob" },
  admin: { id: "UADMIN", name: "admin" },
};
const ctx = (s: Services, who: keyof typeof people): CommandContext => ({
  channel: slack,
  user: people[who],
  via: "slash",
  services: s,
});
const run = (s: Services, who: keyof typeof people, text: string) => dispatch({ text }, ctx(s, who), { commands });

/** Alice asks for a start of `steps` and confirms it: the approval request, or the start when none is needed. */
async function ask(s: Services, steps: number, who: keyof typeof people = "alice") {
  const prompt = await run(s, who, `/rl start ${steps}`);
  expect(prompt.needsConfirmation).toBe(true);
  return answer(prompt.reply, ctx(s, who), "confirm", { commands });
}
const idOf = (reply: { data?: unknown }) => (reply.data as { approval_id: string }).approval_id;

describe("approvals", () => {
  it("holds a matching start until another approver approves it; then it runs once, as the asker", async () => {
    started.length = 0;
    const s = services();
    const held = await ask(s, 5000);
    expect(held.ok).toBe(true);
    expect(held.reply.title).toBe('Approval needed: /rl start "5000"');
    const id = idOf(held.reply);
    expect(held.reply.buttons?.map((b) => b.kind === "command" && b.command)).toEqual([
      `/rl approve ${id}`,
      `/rl deny ${id}`,
    ]);
    expect(started).toEqual([]);

    const own = await run(s, "alice", `/rl approve ${id}`);
    expect(own).toMatchObject({ ok: false, reply: { error: { code: "FORBIDDEN" } } });
    t += 1000;
    const approved = await run(s, "bob", `/rl approve ${id}`);
    expect(approved.ok).toBe(true);
    expect(approved.reply.text).toContain("Approved by");
    expect(approved.reply.data).toMatchObject({
      approval_id: id,
      state: "approved",
      approved_by: "UBOB",
      run_id: "run00001",
    });
    expect(started).toEqual([{ user: "UALICE", steps: 5000 }]);

    for (const who of ["bob", "admin"] as const) {
      const replay = await run(s, who, `/rl approve ${id}`);
      expect(replay).toMatchObject({ ok: false, reply: { error: { code: "CONFLICT" } } });
      const deny = await run(s, who, `/rl deny ${id}`);
      expect(deny).toMatchObject({ ok: false, reply: { error: { code: "CONFLICT" } } });
    }
    expect(started).toHaveLength(1);
    const lines = s.audit.latest(20).map((a) => `${a.command}:${a.outcome}:${a.userId}`);
    expect(lines).toEqual(
      expect.arrayContaining(["approval-request:ok:UALICE", "approve:ok:UBOB", "approve:refused:UALICE"]),
    );
  });

  it("never lets the asker approve their own start, even an admin", async () => {
    started.length = 0;
    const s = services();
    const id = idOf((await ask(s, 5000, "admin")).reply);
    const own = await run(s, "admin", `/rl approve ${id}`);
    expect(own).toMatchObject({ ok: false, reply: { error: { code: "FORBIDDEN" } } });
    expect(started).toEqual([]);
  });

  it("lets a small start through without a request", async () => {
    started.length = 0;
    const s = services();
    const done = await ask(s, 10);
    expect(done.reply.title).toBe("Started for UALICE");
  });

  it("does nothing for an expired request, a denied one, or an approver taken off the list; a restart keeps a pending one", async () => {
    started.length = 0;
    const dir = tempDir();
    const s = services(dir);
    const expiring = idOf((await ask(s, 5000)).reply);
    const denied = idOf((await ask(s, 5000)).reply);
    expect(await run(s, "bob", `/rl deny ${denied}`)).toMatchObject({ ok: true, reply: { data: { state: "denied" } } });
    expect(await run(s, "admin", `/rl approve ${denied}`)).toMatchObject({ ok: false });
    t += 61 * 60_000;
    expect(await run(s, "bob", `/rl approve ${expiring}`)).toMatchObject({
      ok: false,
      reply: { error: { code: "CONFLICT", message: expect.stringContaining("expired") } },
    });
    const pending = idOf((await ask(s, 5000)).reply);
    await s.close();
    opened.splice(0);

    // Restarted with Bob no longer an approver: the request survived, and only the remaining approvers can answer it.
    const again = services(dir, { RL_APPROVERS: "slack:UADMIN" });
    expect(await run(again, "bob", `/rl approve ${pending}`)).toMatchObject({
      ok: false,
      reply: { error: { code: "FORBIDDEN" } },
    });
    expect(started).toEqual([]);
    expect(await run(again, "admin", `/rl approve ${pending}`)).toMatchObject({ ok: true });
    expect(started).toEqual([{ user: "UALICE", steps: 5000 }]);
  });

  it("queues the request's message edit in the outbox with the decision, once, and keeps it across a restart", async () => {
    started.length = 0;
    const dir = tempDir();
    const s = services(dir);
    const edits = (x: Services) => x.outbox.due(t + 1, 50).filter((m) => m.dedupeKey.startsWith("approval:"));
    const approved = idOf((await ask(s, 5000)).reply);
    s.approvals.recordMessage(approved, { id: "1700000000.000100" });
    expect(edits(s)).toEqual([]);
    await run(s, "bob", `/rl approve ${approved}`);
    await run(s, "bob", `/rl approve ${approved}`);
    expect(edits(s)).toHaveLength(1);
    expect(edits(s)[0]).toMatchObject({
      dedupeKey: `approval:${approved}:closed`,
      edit: "1700000000.000100",
      target: { channel: slack },
      reply: { title: 'Approved: /rl start "5000"', buttons: [] },
    });
    expect(edits(s)[0]!.reply.text).toMatch(/^Approved by \uE000UBOB\uE001 at \d{4}-/);

    // Denied before the adapter recorded where the request was posted: the edit is queued when it is recorded.
    const denied = idOf((await ask(s, 5000)).reply);
    await run(s, "bob", `/rl deny ${denied}`);
    expect(edits(s)).toHaveLength(1);
    s.approvals.recordMessage(denied, { id: "1700000000.000200", thread: "1700000000.000001" });
    expect(edits(s)[1]).toMatchObject({ edit: "1700000000.000200", target: { thread: "1700000000.000001" } });

    // Expired: no event of its own, so the expiry timer's pass queues its edit, once.
    const expiring = idOf((await ask(s, 5000)).reply);
    s.approvals.recordMessage(expiring, { id: "1700000000.000300" });
    expect(s.approvalExpiry.sweep()).toBe(0);
    t += 61 * 60_000;
    expect(s.approvalExpiry.sweep()).toBe(1);
    expect(s.approvalExpiry.sweep()).toBe(0);
    expect(edits(s)[2]).toMatchObject({ edit: "1700000000.000300", reply: { title: 'Expired: /rl start "5000"' } });
    await s.close();
    opened.splice(0);

    // Nothing was sent before the restart: the edits are still owed, and nothing more is queued.
    const again = services(dir);
    expect(edits(again).map((m) => m.edit)).toEqual(["1700000000.000100", "1700000000.000200", "1700000000.000300"]);
    expect(again.approvalExpiry.sweep()).toBe(0);
    expect(started).toEqual([{ user: "UALICE", steps: 5000 }]);
  });

  it("prints a console request's decision as a notice, the console having no message to edit", async () => {
    started.length = 0;
    const s = services();
    const terminal = { platform: "console", workspace: "local", channel: "main" };
    const as = (id: string): CommandContext => ({ channel: terminal, user: { id, name: id }, via: "cli", services: s });
    const prompt = await dispatch({ text: "/rl start 5000" }, as("alice"), { commands });
    const held = await answer(prompt.reply, as("alice"), "confirm", { commands });
    const id = idOf(held.reply);
    expect(await dispatch({ text: `/rl approve ${id}` }, as("carol"), { commands })).toMatchObject({ ok: true });
    const [notice] = s.outbox.due(t + 1, 50).filter((m) => m.dedupeKey === `approval:${id}:closed`);
    expect(notice).toMatchObject({ target: { channel: terminal }, reply: { title: 'Approved: /rl start "5000"' } });
    expect(notice!.edit).toBeUndefined();
  });

  it("stops the bot at start on people, roles and rules it cannot know, naming the setting", () => {
    const load = (env: Record<string, string>) => () => loadConfig({ ...BASE, ...env }, tempDir());
    expect(load({ RL_APPROVERS: "alice" })).toThrow(/RL_APPROVERS has a bad value: "alice"/);
    expect(load({ RL_APPROVERS: "slack:role:leads" })).toThrow(/RL_APPROVERS has a bad value: only Discord has roles/);
    expect(load({ RL_APPROVERS: "teams:U1" })).toThrow(/RL_APPROVERS has a bad value: "teams" is not a platform/);
    expect(load({ RL_APPROVERS: "" })).toThrow(/RL_APPROVERS lists no one/);
    expect(load({ RL_APPROVE_WHEN: "steps>1000" })).toThrow(/RL_APPROVE_WHEN has a bad value: "steps>1000"/);
    expect(load({ RL_APPROVERS: "discord:role:leads,U0ABC,123456789012345678" })).not.toThrow();
  });
});
