import { afterEach, describe, expect, it } from "vitest";
import { conversation, SLACK, startChatHarness, toolResult, type ChatHarness } from "./chat-harness.ts";

let harness: ChatHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("chat mode safety", () => {
  it("refuses a read-only person's select with a FORBIDDEN tool result, and changes nothing", async () => {
    const h = (harness = await startChatHarness({ env: { RL_DEFAULT_ROLE: "read", RL_OPERATORS: "slack:UOPS" } }));
    h.fake.script(
      { toolCalls: [{ name: "rl_select_environment", arguments: { name: "letters" } }] },
      (request) => {
        const refusal = toolResult(request.body.messages.at(-1)).error as { code: string; message: string };
        return { text: `I can't: ${refusal.message}` };
      },
    );
    const reply = await h.chat("select letters", h.ctx({ user: "UREADER" }));
    const result = toolResult(conversation(h.fake, 1).at(-1));
    expect(result).toMatchObject({ error: { code: "FORBIDDEN", details: { needed: "operate", role: "read" } } });
    expect(reply.text).toMatch(/needs the operate permission; you have read.*slack:UOPS/);
    expect(reply.data).toMatchObject({ tool_calls: [{ name: "rl_select_environment", ok: false, code: "FORBIDDEN" }] });
    expect(h.services.channels.selectedEnvironment(SLACK)).toBeUndefined();
    expect(h.services.audit.latest(5).map((a) => [a.userId, a.command, a.outcome])).toEqual([["UREADER", "select", "refused"]]);
  });

  it("never starts training itself: the person gets Confirm and Cancel buttons, the model is told it has not run", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" } }));
    h.fake.script(
      { toolCalls: [{ name: "rl_select_environment", arguments: { name: "arithmetic" } }] },
      { toolCalls: [{ name: "rl_start_training", arguments: {} }] },
      { text: "Press Confirm to start training arithmetic." },
    );
    const reply = await h.chat("train arithmetic", h.ctx());
    expect(h.services.runs.listAll(10)).toEqual([]);

    const told = toolResult(conversation(h.fake, 2).at(-1));
    expect(told).toMatchObject({ status: "awaiting_confirmation", command: "/rl start", preview: { title: "Start training arithmetic?" } });
    expect(told.message).toMatch(/Not run yet/);

    expect(reply.text).toBe("Press Confirm to start training arithmetic.");
    expect(reply.title).toBe("Start training arithmetic?");
    expect(reply.fields?.find((f) => f.label === "Environment")?.value).toBe("arithmetic");
    expect(reply.buttons).toEqual([
      { label: "Confirm", command: "/rl start", style: "primary", confirmed: true },
      { label: "Cancel", command: "", action: "cancel" },
    ]);
    expect(reply.data).toMatchObject({ tool_calls: [{ name: "rl_select_environment", ok: true }, { name: "rl_start_training", ok: true, awaiting_confirmation: true }] });
  });

  it("never stops a run itself either: the stop stays a prompt for the person", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" } }));
    h.services.runs.insert({ id: "feed0001", channel: SLACK, environment: "arithmetic", config: {}, status: "queued", createdBy: "U1" });
    h.fake.script({ toolCalls: [{ name: "rl_stop_training", arguments: { run: "feed0001" } }] }, { text: "Confirm to stop it." });
    const reply = await h.chat("stop feed0001", h.ctx());
    expect(h.services.runs.get("feed0001")?.status).toBe("queued");
    expect(reply.buttons?.[0]).toMatchObject({ label: "Confirm", command: '/rl stop "feed0001"', style: "danger", confirmed: true });
    expect(reply.buttons?.[1]).toMatchObject({ action: "cancel" });
  });

  it("lets the model check a run's status once per 30 minutes, across messages", async () => {
    const h = (harness = await startChatHarness());
    h.services.runs.insert({ id: "abcd1234", channel: SLACK, environment: "arithmetic", config: {}, status: "completed", createdBy: "U1" });
    h.fake.script({ toolCalls: [{ name: "rl_check_status", arguments: { run: "abcd1234" } }] }, { text: "It completed." });
    await h.chat("how is abcd1234 doing?", h.ctx());
    expect(toolResult(conversation(h.fake, 1).at(-1))).toMatchObject({ run_id: "abcd1234", status: "completed" });

    h.fake.script(
      { toolCalls: [{ name: "rl_check_status", arguments: { run: "abcd1234" } }, { name: "rl_check_status", arguments: {} }] },
      { text: "I checked recently; next check in 30 minutes." },
    );
    const reply = await h.chat("and now?", h.ctx());
    const results = conversation(h.fake, 3).slice(-2).map((m) => toolResult(m).error);
    expect(results).toEqual([
      expect.objectContaining({ code: "RATE_LIMITED", details: expect.objectContaining({ run_id: "abcd1234" }) }),
      expect.objectContaining({ code: "RATE_LIMITED" }),
    ]);
    expect(reply.data).toMatchObject({ tool_calls: [{ code: "RATE_LIMITED" }, { code: "RATE_LIMITED" }] });
  });
});
