// The audit log: state changes and refusals recorded by the dispatcher, and /rl audit [n] showing them to admins only.
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_AUDIT_ROWS, MAX_AUDIT_ROWS } from "../../commands/audit.ts";
import { dispatch } from "../../commands/dispatch.ts";
import { POLICY_ENV, SLACK, USERS, startKit, type Kit } from "./security-kit.ts";
import { personRef } from "../../src/reply.ts";

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

interface Entry {
  id: number;
  time: string;
  platform: string;
  workspace: string;
  channel: string;
  user: string;
  command: string;
  args: Record<string, unknown>;
  outcome: string;
  detail: string | null;
}

describe("the audit log", () => {
  it("records every state change and every refusal, and nothing for reads", async () => {
    const k = (kit = startKit({ env: POLICY_ENV }));
    const op = k.ctx(USERS.operator);
    await dispatch({ text: "/rl select probe" }, op);
    await dispatch({ text: "/rl set count 7" }, op);
    await dispatch({ text: "/rl set total_steps 5" }, op);
    await dispatch({ text: "/rl set count 1000" }, op);
    await dispatch({ text: "/rl config" }, op);
    await dispatch({ text: "/rl envs" }, k.ctx(USERS.reader));
    await dispatch({ text: "/rl reset count" }, k.ctx(USERS.reader));
    await dispatch(
      { name: "rl_edit_config", args: { field: "label", value: "x" } },
      k.ctx(USERS.reader, { via: "chat" }),
    );
    await dispatch({ text: "/rl audit" }, op);
    const rows = k.services.audit.latest(50).reverse();
    expect(rows.map((r) => [r.userId, r.command, r.outcome])).toEqual([
      [USERS.operator, "select", "ok"],
      [USERS.operator, "set", "ok"],
      [USERS.operator, "set", "refused"],
      [USERS.operator, "set", "failed"],
      [USERS.reader, "reset", "refused"],
      [USERS.reader, "set", "refused"],
      [USERS.operator, "audit", "refused"],
    ]);
    expect(rows[1]).toMatchObject({ ...SLACK, args: { field: "count", value: "7" } });
    expect(rows[2]!.detail).toMatch(/total_steps is locked/);
    expect(rows[3]!.detail).toMatch(/count must be at most 100/);
    expect(rows[6]!.detail).toMatch(/needs the admin permission/);
  });

  it("/rl audit lists the latest rows for admins: 20 by default, n up to 200, with JSON data", async () => {
    const k = (kit = startKit({ env: POLICY_ENV }));
    for (let i = 0; i < 230; i++)
      k.services.audit.record({
        ...SLACK,
        userId: `U${i}`,
        command: "set",
        args: { field: "count", value: String(i) },
        outcome: i % 2 ? "ok" : "refused",
        detail: i % 2 ? undefined : `no\n${i}`,
      });
    const admin = k.ctx(USERS.admin);

    const first = await dispatch({ text: "/rl audit" }, admin);
    expect(first.ok).toBe(true);
    expect(first.reply.delivery?.ephemeral).toBe(true);
    const data = first.reply.data as { entries: Entry[]; count: number };
    expect(data.count).toBe(DEFAULT_AUDIT_ROWS);
    expect(data.entries[0]).toMatchObject({
      platform: "slack",
      workspace: "T1",
      channel: "C1",
      user: "U229",
      command: "set",
      args: { field: "count", value: "229" },
      outcome: "ok",
      detail: null,
    });
    expect(data.entries[1]).toMatchObject({ user: "U228", outcome: "refused", detail: "no\n228" });
    expect(data.entries[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const lines = first.reply.blocks![0]!.content.split("\n");
    expect(lines).toHaveLength(DEFAULT_AUDIT_ROWS);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}slack:C1 {2}U228 {2}set {2}refused {2}no 228$/);

    const many = await dispatch({ name: "audit", args: { n: MAX_AUDIT_ROWS } }, admin);
    expect((many.reply.data as { count: number }).count).toBe(MAX_AUDIT_ROWS);
    const tooMany = await dispatch({ text: `/rl audit ${MAX_AUDIT_ROWS + 1}` }, admin);
    expect(tooMany.reply.error?.code).toBe("USAGE");
    expect(tooMany.reply.text).toMatch(/^n: .*200.*\nUsage: \/rl audit \[n\]$/s);
    for (const bad of ["0", "-3", "ten", "1.5"])
      expect((await dispatch({ text: `/rl audit ${bad}` }, admin)).reply.error?.code).toBe("USAGE");
  });

  it("/rl audit is for admins only, on every route", async () => {
    const k = (kit = startKit({ env: POLICY_ENV }));
    for (const user of [USERS.reader, USERS.operator]) {
      for (const input of [{ text: "/rl audit" }, { name: "audit", args: {} }]) {
        const r = await dispatch(input, k.ctx(user));
        expect(r.reply.error?.code).toBe("FORBIDDEN");
        expect(r.reply.text).toContain(`needs the admin permission`);
        expect(r.reply.text).toContain(personRef(USERS.admin));
        expect(r.reply.data).toBeUndefined();
      }
    }
    const console = await dispatch(
      { text: "/rl audit 3" },
      k.ctx("local-user", { channel: { platform: "console", workspace: "local", channel: "console" }, via: "console" }),
    );
    expect(console.ok).toBe(true);
  });

  it("stores arguments redacted, however the secret is escaped", async () => {
    const secret = 'wandb-"quoted\\secret-0123456789';
    const k = (kit = startKit({ env: { ...POLICY_ENV, WANDB_API_KEY: secret } }));
    await dispatch(
      { name: "rl_edit_config", args: { field: "label", value: `x ${secret} y`, [secret]: 1 } },
      k.ctx(USERS.reader, { via: "chat" }),
    );
    const raw = k.services.db.prepare("SELECT args_json, detail FROM audit").all();
    expect(raw).toHaveLength(1);
    expect(JSON.stringify(raw)).not.toContain("quoted");
    expect(k.services.audit.latest(1)[0]!.args).toEqual({ field: "label", value: "x [redacted] y", "[redacted]": 1 });
  });
});
