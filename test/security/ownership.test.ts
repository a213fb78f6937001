// Stopping a run: its starter or an admin, on every route (typed, JSON, a Stop or Confirm button, a chat tool call), refusals audited.
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import { createChatHandler } from "../../adapters/chat/create-chat-handler.ts";
import { confirmButtons } from "../../src/reply.ts";
import { startFakeLlm, type FakeLlm } from "../fakes/llm-server.ts";
import { answer, dispatchConfirmed } from "../helpers/confirm.ts";
import { DISCORD, POLICY_ENV, SLACK, USERS, insertRun, startKit, type Kit } from "./security-kit.ts";
import { personRef } from "../../src/reply.ts";

let kit: Kit | undefined;
let llm: FakeLlm | undefined;
afterEach(async () => {
  await kit?.close();
  await llm?.close();
  kit = undefined;
  llm = undefined;
});

function start(env: Record<string, string> = {}): Kit {
  kit = startKit({ env: { ...POLICY_ENV, ...env } });
  insertRun(kit.services, "feed0001", USERS.operator);
  return kit;
}

const statusOf = (k: Kit) => k.services.runs.get("feed0001")?.status;

describe("run ownership", () => {
  it("refuses another operator on every route, before any prompt, and says who may", async () => {
    const k = start();
    const other = (via: "slash" | "button" | "chat") => k.ctx(USERS.operator2, { via });
    const attempts = [
      await dispatch({ text: "/rl stop feed0001" }, other("slash")),
      // confirmed: true is for the local command line only; on a platform it changes nothing.
      await dispatch({ text: "/rl stop feed0001" }, other("slash"), { confirmed: true }),
      await dispatch({ text: '/rl stop "feed0001"' }, other("button")),
      await dispatch({ name: "rl_stop_training", args: { run: "feed0001" } }, other("chat")),
      await dispatch({ name: "stop", args: { run: "feed0001" } }, other("chat"), { confirmed: true }),
      // A unique prefix names the same run, and is refused the same way.
      await dispatch({ text: "/rl stop feed" }, other("slash")),
    ];
    for (const r of attempts) {
      expect(r.ok).toBe(false);
      expect(r.needsConfirmation).toBeUndefined();
      expect(r.reply.buttons).toBeUndefined();
      expect(r.reply.error).toMatchObject({
        code: "FORBIDDEN",
        details: { needed: "admin", role: "operate", started_by: USERS.operator },
      });
      expect(r.reply.text).toBe(
        `Run feed0001 was started by ${personRef(USERS.operator)}; only they or an admin may stop it. Stopping another person's run needs the admin permission; you have operate. Ask ${personRef(USERS.operator)} or one of: ${personRef(USERS.admin)} (RL_ADMINS).`,
      );
    }
    expect(statusOf(k)).toBe("queued");
    const refused = k.services.audit.latest(50).filter((a) => a.outcome === "refused");
    expect(refused).toHaveLength(attempts.length);
    expect(refused.every((a) => a.command === "stop" && a.userId === USERS.operator2)).toBe(true);
  });

  it("lets the starter stop their own run, after confirming", async () => {
    const k = start();
    const prompt = await dispatch({ text: "/rl stop feed0001" }, k.ctx(USERS.operator));
    expect(prompt.needsConfirmation).toBe(true);
    expect(confirmButtons(prompt.reply)[0]?.command).toBe('/rl stop "feed0001"');
    const done = await answer(prompt.reply, k.ctx(USERS.operator, { via: "button" }));
    expect(done.ok).toBe(true);
    expect(statusOf(k)).toBe("stopped");
    expect(k.services.audit.latest(1)[0]).toMatchObject({ command: "stop", outcome: "ok", userId: USERS.operator });
  });

  it("lets an admin stop anyone's run, on the button and the chat route", async () => {
    const k = start();
    const viaChat = await dispatch(
      { name: "rl_stop_training", args: { run: "feed0001" } },
      k.ctx(USERS.admin, { via: "chat" }),
    );
    expect(viaChat.needsConfirmation).toBe(true);
    const done = await answer(viaChat.reply, k.ctx(USERS.admin, { via: "button" }));
    expect(done.ok).toBe(true);
    expect(statusOf(k)).toBe("stopped");
  });

  it("takes ids per platform: the same id on another platform is another person", async () => {
    const k = start({ RL_DEFAULT_ROLE: "operate" });
    const sameIdOnDiscord = await dispatchConfirmed(
      { text: "/rl stop feed0001" },
      k.ctx(USERS.operator, { channel: DISCORD }),
    );
    expect(sameIdOnDiscord.reply.error?.code).toBe("FORBIDDEN");
    expect(statusOf(k)).toBe("queued");
    // The starter, from another channel of the same platform, may.
    const elsewhere = await dispatchConfirmed(
      { text: "/rl stop feed0001" },
      k.ctx(USERS.operator, { channel: { ...SLACK, channel: "C2" } }),
    );
    expect(elsewhere.ok).toBe(true);
  });

  it("refuses the model's stop for another person's run, so the person is never shown a Confirm button", async () => {
    const k = start();
    llm = await startFakeLlm();
    const chat = createChatHandler(k.services, { llm: { baseUrl: llm.baseUrl, model: "fake/model" } });
    llm.script(
      { toolCalls: [{ name: "rl_stop_training", arguments: { run: "feed0001" } }] },
      { text: "I can't stop that run." },
    );
    const reply = await chat("stop run feed0001", k.ctx(USERS.operator2, { via: "chat" }));
    expect(reply.buttons).toBeUndefined();
    expect(reply.data).toMatchObject({ tool_calls: [{ name: "rl_stop_training", ok: false, code: "FORBIDDEN" }] });
    const toolMessage = llm.requests[1]!.body.messages.at(-1)!;
    expect(String(toolMessage.content)).toContain("only they or an admin may stop it");
    expect(statusOf(k)).toBe("queued");
    expect(k.services.audit.latest(1)[0]).toMatchObject({
      command: "stop",
      outcome: "refused",
      userId: USERS.operator2,
    });
  });
});

describe("sweep ownership", () => {
  function sweepKit(): Kit {
    kit = startKit({ env: POLICY_ENV });
    kit.services.sweeps.insert({
      id: "s0000001",
      channel: SLACK,
      environment: "probe",
      grid: [{ field: "count", values: [1, 2] }],
      createdBy: USERS.operator,
    });
    for (const id of ["feed0001", "feed0002"])
      kit.services.runs.insert({
        id,
        channel: SLACK,
        environment: "probe",
        config: {},
        status: "queued",
        createdBy: USERS.operator,
        sweepId: "s0000001",
      });
    return kit;
  }
  const statuses = (k: Kit) => k.services.runs.listBySweep("s0000001").map((r) => r.status);

  it("refuses another operator stopping someone's sweep, saying who may, and stops nothing", async () => {
    const k = sweepKit();
    const reply = await dispatchConfirmed({ text: "/rl stop s0000001" }, k.ctx(USERS.operator2));
    expect(reply.ok).toBe(false);
    expect(reply.reply.error).toMatchObject({
      code: "FORBIDDEN",
      details: { needed: "admin", started_by: USERS.operator },
    });
    expect(reply.reply.text).toMatch(
      /^Sweep s0000001 was started by \uE000UOPS\uE001; only they or an admin may stop it\. Stopping another person's sweep needs the admin permission/,
    );
    expect(statuses(k)).toEqual(["queued", "queued"]);
  });

  it("lets an admin stop it: every run, with one confirmation", async () => {
    const k = sweepKit();
    const reply = await dispatchConfirmed({ text: "/rl stop s0000001" }, k.ctx(USERS.admin));
    expect(reply.ok, reply.reply.text).toBe(true);
    expect(statuses(k)).toEqual(["stopped", "stopped"]);
  });
});
