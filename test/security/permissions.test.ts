// Every command against every role, typed and as JSON arguments (the LLM's and Discord's route), through the real dispatcher.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch, type CommandInput } from "../../commands/dispatch.ts";
import { COMMANDS } from "../../commands/index.ts";
import type { AnyCommand } from "../../commands/types.ts";
import { allows, type Level, type Role } from "../../src/policy.ts";
import { insertRun, startKit, type Kit } from "./security-kit.ts";
import { personRef } from "../../src/reply.ts";

/** The table: read = look, operate = change this channel and own runs, admin = anyone's runs and the audit log. */
const NEEDS: Record<string, Level> = {
  help: "read",
  envs: "read",
  config: "read",
  status: "read",
  results: "read",
  compare: "operate",
  runs: "read",
  logs: "read",
  keys: "read",
  select: "operate",
  set: "operate",
  reset: "operate",
  start: "operate",
  rerun: "operate",
  resume: "operate",
  fork: "operate",
  checkpoints: "read",
  samples: "read",
  sweep: "operate",
  approve: "read",
  deny: "read",
  budget: "read",
  notify: "read",
  stop: "operate",
  test: "operate",
  digest: "operate",
  audit: "admin",
};

/** Small valid arguments for each command; nothing is selected in the command's channel, so nothing expensive runs. */
const INPUTS: Record<string, { text: string; args: Record<string, unknown> }> = {
  help: { text: "", args: {} },
  envs: { text: "", args: {} },
  config: { text: "", args: {} },
  status: { text: "feed0001", args: { run: "feed0001" } },
  results: { text: "feed0001", args: { run: "feed0001" } },
  compare: { text: "feed0001 feed0002", args: { run: "feed0001 feed0002" } },
  runs: { text: "--limit 5", args: { limit: 5 } },
  logs: { text: "feed0001 env", args: { run: "feed0001", component: "env" } },
  keys: { text: "", args: {} },
  select: { text: "probe", args: { name: "probe" } },
  set: { text: "count 5", args: { field: "count", value: "5" } },
  reset: { text: "count", args: { field: "count" } },
  start: { text: "", args: {} },
  rerun: { text: "feed0001", args: { run: "feed0001" } },
  resume: { text: "feed0001", args: { run: "feed0001" } },
  fork: { text: "feed0001", args: { run: "feed0001" } },
  checkpoints: { text: "feed0001", args: { run: "feed0001" } },
  samples: { text: "feed0001 --best", args: { run: "feed0001", best: true } },
  sweep: { text: "count=1,2", args: { grid: "count=1,2" } },
  approve: { text: "k3x9q2m7ab", args: { id: "k3x9q2m7ab" } },
  deny: { text: "k3x9q2m7ab", args: { id: "k3x9q2m7ab" } },
  budget: { text: "", args: {} },
  notify: { text: "", args: {} },
  stop: { text: "feed0001", args: { run: "feed0001" } },
  test: { text: "--steps 1", args: { steps: 1 } },
  digest: { text: "off feed0001", args: { action: "off", run: "feed0001" } },
  audit: { text: "5", args: { n: 5 } },
};

const ME = "UX";
const BOSS = "slack:UBOSS";
const HELPER = "slack:UHELPER";
const SETUPS: Record<Role, Record<string, string>> = {
  none: { RL_DEFAULT_ROLE: "none", RL_ADMINS: BOSS, RL_OPERATORS: HELPER },
  read: { RL_DEFAULT_ROLE: "read", RL_ADMINS: BOSS, RL_OPERATORS: HELPER },
  operate: { RL_DEFAULT_ROLE: "read", RL_ADMINS: BOSS, RL_OPERATORS: `${HELPER},slack:${ME}` },
  admin: { RL_DEFAULT_ROLE: "read", RL_ADMINS: `${BOSS},slack:${ME}`, RL_OPERATORS: HELPER },
};
const ROLES = Object.keys(SETUPS) as Role[];
const kits = new Map<Role, Kit>();

beforeAll(() => {
  for (const role of ROLES) {
    const kit = startKit({ env: SETUPS[role] });
    // The run is mine, so stop is decided by the permission alone (ownership has its own tests).
    insertRun(kit.services, "feed0001", ME);
    insertRun(kit.services, "feed0002", ME, undefined, "completed");
    kits.set(role, kit);
  }
});
afterAll(async () => {
  for (const kit of kits.values()) await kit.close();
});

const byName = (name: string): AnyCommand => COMMANDS.find((c) => c.name === name)!;

function inputFor(command: AnyCommand, route: "text" | "json"): CommandInput {
  const input = INPUTS[command.name]!;
  return route === "text"
    ? { text: `/rl ${command.name} ${input.text}`.trim() }
    : { name: command.toolName ?? command.name, args: input.args };
}

describe("the permission table", () => {
  it("covers exactly the registered commands, with the permission each declares", () => {
    expect(COMMANDS.map((c) => c.name).sort()).toEqual(Object.keys(NEEDS).sort());
    for (const c of COMMANDS) expect([c.name, c.permission]).toEqual([c.name, NEEDS[c.name]]);
  });

  const cases = Object.keys(NEEDS).flatMap((name) =>
    ROLES.flatMap((role) => (["text", "json"] as const).map((route) => ({ name, role, route }))),
  );
  it.each(cases)("/rl $name as $role ($route)", async ({ name, role, route }) => {
    const kit = kits.get(role)!;
    const command = byName(name);
    // A channel of its own per case: no selection, so commands stop early and cases do not affect each other.
    const ctx = kit.ctx(ME, {
      channel: { platform: "slack", workspace: "T1", channel: `C-${name}-${route}` },
      via: route === "json" ? "chat" : "slash",
    });
    const auditBefore = kit.services.audit.latest(1000).length;
    const result = await dispatch(inputFor(command, route), ctx);
    const level = NEEDS[name]!;
    if (allows(role, level)) {
      // Past the policy and the argument check: it ran, asked to confirm, or found no environment selected here.
      // The fixture runs are atropos-tinker runs: resume and fork are then refused by the stack, after the policy;
      // approve and deny look for a request id that does not exist, after the policy.
      const past = ["resume", "fork"].includes(name)
        ? [undefined, "NO_ENVIRONMENT", "CONFLICT"]
        : ["approve", "deny"].includes(name)
          ? ["NOT_FOUND"]
          : [undefined, "NO_ENVIRONMENT"];
      expect(past, JSON.stringify(result.reply)).toContain(result.reply.error?.code);
      return;
    }
    expect(result.ok).toBe(false);
    expect(result.reply.title).toBe("Not allowed");
    expect(result.reply.error).toMatchObject({ code: "FORBIDDEN", details: { needed: level, role } });
    // What is needed, what the person has, and who has it.
    expect(result.reply.text).toContain(`/rl ${name} needs the ${level} permission; you have ${role}.`);
    // Holders are named as people (each adapter shows their names), never as the raw policy entry.
    const named = (entry: string) => personRef(entry.replace(/^slack:/, ""));
    expect(result.reply.text).toContain(named(BOSS));
    expect(result.reply.text).not.toContain(BOSS);
    if (level === "admin") expect(result.reply.text).not.toContain(named(HELPER));
    else expect(result.reply.text).toContain(named(HELPER));
    // Every refusal is in the audit log.
    const rows = kit.services.audit.latest(1000);
    expect(rows.length).toBe(auditBefore + 1);
    expect(rows[0]).toMatchObject({ userId: ME, command: name, outcome: "refused", channel: ctx.channel.channel });
  });
});

describe("the channel allowlist, through the dispatcher", () => {
  it("refuses everyone but admins outside the listed channels, blaming the channel, and audits it", async () => {
    const kit = startKit({
      env: {
        RL_DEFAULT_ROLE: "read",
        RL_ADMINS: BOSS,
        RL_OPERATORS: `slack:${ME}`,
        RL_CHANNEL_ALLOWLIST: "slack:C-OK",
      },
    });
    try {
      const elsewhere = { platform: "slack", workspace: "T1", channel: "C-ELSEWHERE" };
      for (const input of [
        { text: "/rl envs" },
        { name: "rl_select_environment", args: { name: "probe" } },
      ] as CommandInput[]) {
        const refused = await dispatch(input, kit.ctx(ME, { channel: elsewhere }));
        expect(refused.reply.error).toMatchObject({
          code: "FORBIDDEN",
          details: { role: "none", reason: "channel_not_allowed" },
        });
        expect(refused.reply.text).toContain("RL_CHANNEL_ALLOWLIST (slack:C-OK)");
      }
      expect(kit.services.audit.latest(5).map((a) => [a.command, a.outcome, a.channel])).toEqual([
        ["select", "refused", "C-ELSEWHERE"],
        ["envs", "refused", "C-ELSEWHERE"],
      ]);
      expect(
        (await dispatch({ text: "/rl select probe" }, kit.ctx(ME, { channel: { ...elsewhere, channel: "C-OK" } }))).ok,
      ).toBe(true);
      expect((await dispatch({ text: "/rl select probe" }, kit.ctx("UBOSS", { channel: elsewhere }))).ok).toBe(true);
    } finally {
      await kit.close();
    }
  });
});
