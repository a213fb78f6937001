// Approvals in Discord, with real discord.js against the fake: the request's Approve / Deny buttons, the asker's own
// click refused (an admin too), another approver's click starting the run, an expired request doing nothing, and the
// request's message edited (through the outbox) to say who decided it and when, its buttons gone.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALICE, BOB } from "../fakes/discord-gateway.ts";
import {
  bodyOf,
  buttonsOf,
  embedsOf,
  isFollowup,
  messageIdOf,
  harnessPerTest,
  type Harness,
} from "../discord/harness.ts";
import { createApprovalCommands, type ApprovalCommands } from "./approval-commands.ts";

const startHarness = harnessPerTest();
let t: ApprovalCommands;
let skew = 0;
afterEach(() => {
  skew = 0;
});

async function start(): Promise<Harness> {
  t = createApprovalCommands();
  return startHarness({
    adapter: { commands: t.commands },
    env: {
      RL_ADMINS: `discord:${ALICE.id}`,
      RL_APPROVE_WHEN: "steps>=1000",
      RL_APPROVERS: `discord:${ALICE.id},discord:${BOB.id}`,
      RL_APPROVAL_TTL_MINUTES: "30",
    },
    now: () => Date.now() + skew,
  });
}

const textOf = (call: Parameters<typeof embedsOf>[0]): string => JSON.stringify(embedsOf(call));

/** Alice runs /rl start 5000 and confirms it: the public request posted as the follow-up, and its buttons. */
async function request(harness: Harness) {
  const { fake } = harness;
  const prompt = await fake.slash("start", { steps: 5000 }).callback();
  const [confirm] = buttonsOf(prompt);
  const click = fake.click(messageIdOf(prompt), confirm!.custom_id);
  await click.callback();
  const posted = await fake.waitForCall(isFollowup(click.token), "the approval request");
  expect(embedsOf(posted)[0]?.["title"]).toBe('Approval needed: /rl start "5000"');
  expect((bodyOf(posted)["flags"] ?? 0) as number).toBe(0);
  const [approve, deny] = buttonsOf(posted);
  expect([approve?.label, deny?.label]).toEqual(["Approve", "Deny"]);
  const messageId = messageIdOf(posted);
  const id = /approve (\w{10})/.exec(approve!.custom_id)?.[1] ?? "";
  // The adapter records where it posted the request, just after Discord took it.
  await vi.waitFor(() => expect(harness.services.approvals.get(id)?.message?.id).toBe(messageId));
  return { posted, messageId, approve: approve!.custom_id, deny: deny!.custom_id, id };
}

/**
 * What a click on Approve / Deny answered. Approving is slow work, so the bot first defers in public ("thinking…");
 * a refusal then comes as a private follow-up (the public placeholder removed), a run's answer as the edit of it.
 */
async function answerOf(harness: Harness, click: ReturnType<Harness["fake"]["click"]>) {
  const first = await click.callback();
  if (bodyOf(first)["type"] !== 5) return { call: first, flags: (bodyOf(first)["data"] as { flags?: number }).flags };
  const call = await harness.fake.waitForCall(
    (c) =>
      c.status < 300 &&
      ((c.method === "PATCH" && c.path.endsWith(`/${click.token}/messages/@original`)) || isFollowup(click.token)(c)),
    "the click's answer",
  );
  return { call, flags: (bodyOf(call)["flags"] ?? 0) as number };
}

/** The request's message once the outbox edited it (PATCH on the channel message): what it says and its buttons. */
async function closedMessage(harness: Harness, messageId: string, verb: string) {
  const edit = await harness.fake.waitForCall(
    (c) => c.method === "PATCH" && c.path.endsWith(`/messages/${messageId}`) && c.status < 300,
    "the edit of the request's message",
  );
  expect(String(embedsOf(edit)[0]?.["title"])).toMatch(new RegExp(`^${verb}: /rl start "5000"`));
  expect(buttonsOf(edit)).toEqual([]);
  expect(harness.fake.message(messageId)?.["components"]).toEqual([]);
  return edit;
}

describe("Discord approvals", () => {
  it("refuses the asker's own Approve (an admin too), starts the run on another approver's, and edits the request", async () => {
    const harness = await start();
    const { fake } = harness;
    const { posted, messageId, approve, id } = await request(harness);
    // People named as Discord shows them (a mention that does not ping), never the raw "discord:…" entries.
    expect(textOf(posted)).toContain(`<@${ALICE.id}>, <@${BOB.id}>`);
    expect(textOf(posted)).not.toContain("discord:");

    const ownClick = fake.click(messageId, approve);
    const own = await answerOf(harness, ownClick);
    expect(own.flags).toBe(64);
    // Refused at once, privately: no public "thinking…" (a deferral) came first.
    expect(bodyOf(await ownClick.callback())["type"]).toBe(4);
    expect(textOf(own.call)).toContain("cannot approve or deny it yourself");
    expect(t.started).toEqual([]);
    expect(harness.services.approvals.get(id)?.state).toBe("pending");

    const answer = await answerOf(harness, fake.click(messageId, approve, { user: BOB }));
    expect(answer.flags).toBe(0);
    expect(embedsOf(answer.call)[0]?.["title"]).toBe(`Started for ${ALICE.id}`);
    expect(t.started).toEqual([{ user: ALICE.id, steps: 5000 }]);

    const closed = await closedMessage(harness, messageId, "Approved");
    expect(textOf(closed)).toMatch(new RegExp(`Approved by <@${BOB.id}> at \\d{4}-\\d\\d-\\d\\dT[\\d:]+Z`));

    // A replayed click changes nothing and says why, privately.
    const replay = await answerOf(harness, fake.click(messageId, approve, { user: BOB }));
    expect(replay.flags).toBe(64);
    expect(textOf(replay.call)).toContain("already approved");
    expect(t.started).toHaveLength(1);
  });

  it("says Denied once in the channel: the request's message; the decider alone is told", async () => {
    const harness = await start();
    const { fake } = harness;
    const { messageId, deny } = await request(harness);
    const answer = await answerOf(harness, fake.click(messageId, deny, { user: BOB }));
    expect(answer.flags).toBe(64);
    expect(String(embedsOf(answer.call)[0]?.["title"])).toMatch(/^Denied: /);
    const closed = await closedMessage(harness, messageId, "Denied");
    expect(textOf(closed)).toContain(`Denied by <@${BOB.id}>`);
    expect(t.started).toEqual([]);
  });

  it("does nothing for an expired request, and its message says it expired", async () => {
    const harness = await start();
    const { fake } = harness;
    const { messageId, approve, id } = await request(harness);
    skew = 31 * 60_000;
    expect(harness.services.approvalExpiry.sweep()).toBe(1);
    const closed = await closedMessage(harness, messageId, "Expired");
    expect(textOf(closed)).toContain("Nothing ran");
    const late = await answerOf(harness, fake.click(messageId, approve, { user: BOB }));
    expect(late.flags).toBe(64);
    expect(textOf(late.call)).toContain("expired");
    expect(t.started).toEqual([]);
    expect(harness.services.approvals.get(id)?.state).toBe("pending");
  });
});
