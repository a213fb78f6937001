import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { CONSOLE_CHANNEL, runConsole } from "../../adapters/console/console.ts";
import { dispatch } from "../../commands/dispatch.ts";
import { waitFor } from "../helpers/bot-process.ts";
import { answer, answeredBy } from "../helpers/confirm.ts";
import { conversation, SLACK, startChatHarness, toolResult, type ChatHarness } from "./chat-harness.ts";

let harness: ChatHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("chat mode safety", () => {
  it("refuses a read-only person's select with a FORBIDDEN tool result, and changes nothing", async () => {
    const h = (harness = await startChatHarness({ env: { RL_DEFAULT_ROLE: "read", RL_OPERATORS: "slack:UOPS" } }));
    h.fake.script({ toolCalls: [{ name: "rl_select_environment", arguments: { name: "letters" } }] }, (request) => {
      const refusal = toolResult(request.body.messages.at(-1)).error as { code: string; message: string };
      return { text: `I can't: ${refusal.message}` };
    });
    const reply = await h.chat("select letters", h.ctx({ user: "UREADER" }));
    const result = toolResult(conversation(h.fake, 1).at(-1));
    expect(result).toMatchObject({ error: { code: "FORBIDDEN", details: { needed: "operate", role: "read" } } });
    // The person travels marked (personRef) through the model's answer, so the adapter names them.
    expect(reply.text).toMatch(
      /needs the operate permission; you have read\. Ask one of: \uE000UOPS\uE001 \(listed in RL_OPERATORS/,
    );
    expect(reply.data).toMatchObject({ tool_calls: [{ name: "rl_select_environment", ok: false, code: "FORBIDDEN" }] });
    expect(h.services.channels.selectedEnvironment(SLACK)).toBeUndefined();
    expect(h.services.audit.latest(5).map((a) => [a.userId, a.command, a.outcome])).toEqual([
      ["UREADER", "select", "refused"],
    ]);
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
    expect(told).toMatchObject({
      status: "awaiting_confirmation",
      command: "/rl start",
      preview: { title: "Start training arithmetic?" },
    });
    expect(told.message).toMatch(/Not run yet/);

    expect(reply.text).toBe("Press Confirm to start training arithmetic.");
    expect(reply.title).toBe("Start training arithmetic?");
    expect(reply.fields?.find((f) => f.label === "Environment")?.value).toBe("arithmetic");
    const id = answeredBy(reply.buttons?.[0]);
    expect(reply.buttons).toEqual([
      { kind: "confirm", label: "Confirm", command: "/rl start", style: "primary", confirmation: id },
      { kind: "cancel", label: "Cancel", confirmation: id },
    ]);
    // The prompt is recorded for the person who asked, in their channel, and only their Confirm (or an admin's) runs it.
    expect(h.services.confirmations.get(id!)).toMatchObject({
      askerId: h.ctx().user.id,
      channel: h.ctx().channel,
      command: "start",
      state: "pending",
    });
    expect(reply.data).toMatchObject({
      tool_calls: [
        { name: "rl_select_environment", ok: true },
        { name: "rl_start_training", ok: true, awaiting_confirmation: true },
      ],
    });
  });

  it("never stops a run itself either: the stop stays a prompt for the person", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" } }));
    h.services.runs.insert({
      id: "feed0001",
      channel: SLACK,
      environment: "arithmetic",
      config: {},
      status: "queued",
      createdBy: "U1",
    });
    h.fake.script(
      { toolCalls: [{ name: "rl_stop_training", arguments: { run: "feed0001" } }] },
      { text: "Confirm to stop it." },
    );
    const reply = await h.chat("stop feed0001", h.ctx());
    expect(h.services.runs.get("feed0001")?.status).toBe("queued");
    expect(reply.buttons?.[0]).toMatchObject({
      label: "Confirm",
      command: '/rl stop "feed0001"',
      style: "danger",
      kind: "confirm",
    });
    expect(reply.buttons?.[1]).toMatchObject({ kind: "cancel", confirmation: answeredBy(reply.buttons?.[0]) });
  });

  it("makes its prompts for the asking person: only they (or an admin) answer them, once", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1,slack:U2" } }));
    h.services.runs.insert({
      id: "feed0001",
      channel: SLACK,
      environment: "arithmetic",
      config: {},
      status: "queued",
      createdBy: "U1",
    });
    h.fake.script(
      { toolCalls: [{ name: "rl_stop_training", arguments: { run: "feed0001" } }] },
      { text: "Confirm to stop it." },
    );
    const reply = await h.chat("stop feed0001", h.ctx());
    // Chat answers are posted in the thread, where anyone can click: another operator is refused, and nothing changes.
    const other = await answer(reply, { ...h.ctx({ user: "U2" }), via: "button" });
    expect(other.reply.text).toBe("Only U1 or an admin can answer this prompt.");
    expect(h.services.runs.get("feed0001")?.status).toBe("queued");
    const mine = await answer(reply, { ...h.ctx(), via: "button" });
    expect(mine.ok).toBe(true);
    expect(h.services.runs.get("feed0001")?.status).toBe("stopped");
    expect((await answer(reply, { ...h.ctx(), via: "button" })).reply.text).toBe(
      "This was already answered (confirmed by U1).",
    );
  });

  it("puts a Confirm and a Cancel for each of several prompts, each answering its own record", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" } }));
    for (const id of ["feed0001", "feed0002"])
      h.services.runs.insert({
        id,
        channel: SLACK,
        environment: "arithmetic",
        config: {},
        status: "queued",
        createdBy: "U1",
      });
    h.fake.script(
      {
        toolCalls: [
          { name: "rl_stop_training", arguments: { run: "feed0001" } },
          { name: "rl_stop_training", arguments: { run: "feed0002" } },
        ],
      },
      { text: "Confirm each." },
    );
    const reply = await h.chat("stop both", h.ctx());
    expect(reply.buttons?.map((b) => [b.label, b.kind])).toEqual([
      ['Confirm /rl stop "feed0001"', "confirm"],
      ['Cancel /rl stop "feed0001"', "cancel"],
      ['Confirm /rl stop "feed0002"', "confirm"],
      ['Cancel /rl stop "feed0002"', "cancel"],
    ]);
    const [c1, x1, c2, x2] = reply.buttons!;
    expect(answeredBy(x1)).toBe(answeredBy(c1));
    expect(answeredBy(x2)).toBe(answeredBy(c2));
    expect(answeredBy(c2)).not.toBe(answeredBy(c1));
    const ctx = { ...h.ctx(), via: "button" as const };
    expect((await dispatch({ confirmation: answeredBy(x1)!, answer: "cancel" }, ctx)).answer?.outcome).toBe(
      "cancelled",
    );
    expect((await dispatch({ confirmation: answeredBy(c2)!, answer: "confirm" }, ctx)).ok).toBe(true);
    expect([h.services.runs.get("feed0001")?.status, h.services.runs.get("feed0002")?.status]).toEqual([
      "queued",
      "stopped",
    ]);
  });

  it("at a terminal, asks y/N for the model's proposal and answers its record as the console user", async () => {
    const h = (harness = await startChatHarness());
    h.services.runs.insert({
      id: "feed0001",
      channel: CONSOLE_CHANNEL,
      environment: "arithmetic",
      config: {},
      status: "queued",
      createdBy: "local",
    });
    h.fake.script(
      { toolCalls: [{ name: "rl_stop_training", arguments: { run: "feed0001" } }] },
      { text: "Say yes to stop it." },
    );
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const output = new PassThrough();
    let printed = "";
    output.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
    const done = runConsole(h.services, { input, output, chat: h.chat, userName: "local" });
    input.write("please stop feed0001\n");
    // Answer only once the prompt is shown, and fail saying so if it never is.
    await waitFor(() => printed.includes('Run /rl stop "feed0001"? [y/N]'), "the y/N prompt");
    input.write("y\n");
    await waitFor(() => printed.includes("stopped"), "the stop's answer");
    input.end();
    await done;
    expect(h.services.runs.get("feed0001")?.status).toBe("stopped");
    expect(h.services.db.prepare("SELECT state, asker_id, answered_by FROM confirmations").all()).toEqual([
      { state: "confirmed", asker_id: "local", answered_by: "local" },
    ]);
  });

  it("stops the model polling a run's status within one message, but answers a person who asks again", async () => {
    const h = (harness = await startChatHarness());
    h.services.runs.insert({
      id: "abcd1234",
      channel: SLACK,
      environment: "arithmetic",
      config: {},
      status: "completed",
      createdBy: "U1",
    });
    h.fake.script(
      {
        toolCalls: [
          { name: "rl_check_status", arguments: { run: "abcd1234" } },
          { name: "rl_check_status", arguments: { run: "abcd1234" } },
          { name: "rl_check_status", arguments: {} },
        ],
      },
      { text: "It completed." },
    );
    const first = await h.chat("how is abcd1234 doing?", h.ctx());
    const polled = conversation(h.fake, 1).slice(-3).map(toolResult);
    expect(polled[0]).toMatchObject({ run_id: "abcd1234", status: "completed" });
    expect(polled.slice(1).map((r) => r.error)).toEqual([
      expect.objectContaining({ code: "RATE_LIMITED", details: expect.objectContaining({ run_id: "abcd1234" }) }),
      expect.objectContaining({ code: "RATE_LIMITED" }),
    ]);
    expect(first.data).toMatchObject({
      tool_calls: [{ ok: true }, { code: "RATE_LIMITED" }, { code: "RATE_LIMITED" }],
    });

    // The person asks again a minute later: a new question, answered with a fresh check.
    h.fake.script(
      { toolCalls: [{ name: "rl_check_status", arguments: { run: "abcd1234" } }] },
      { text: "Still completed." },
    );
    const again = await h.chat("status?", h.ctx());
    expect(toolResult(conversation(h.fake, 3).at(-1))).toMatchObject({ run_id: "abcd1234", status: "completed" });
    expect(again.text).toContain("Still completed.");
  });
});
