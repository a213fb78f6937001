// Approvals in Slack, over HTTP with the real Bolt SDK against the fake: the request's Approve / Deny buttons, the
// asker's own click refused, another approver's click starting the run, replays and expired requests doing nothing,
// and the request's message edited (chat.update, through the outbox) to say who decided it and when, its buttons gone.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALICE, BOB, buttonClick, slashCommand } from "../slack/slack-payloads.ts";
import { buttonsOf, startSlackHarness, textOf, type SlackHarness } from "../slack/slack-harness.ts";
import { createApprovalCommands, type ApprovalCommands } from "./approval-commands.ts";

let h: SlackHarness | undefined;
let t: ApprovalCommands;
let skew = 0;
afterEach(async () => {
  await h?.close();
  h = undefined;
  skew = 0;
});

async function start(): Promise<SlackHarness> {
  t = createApprovalCommands();
  h = await startSlackHarness({
    commands: t.commands,
    env: {
      RL_OPERATORS: `slack:${ALICE.id}`,
      RL_ADMINS: `slack:${ALICE.id}`,
      RL_APPROVE_WHEN: "steps>=1000",
      RL_APPROVERS: `slack:${ALICE.id},slack:${BOB.id}`,
      RL_APPROVAL_TTL_MINUTES: "30",
    },
    now: () => Date.now() + skew,
  });
  // Slack shows people by name (users.info), never a raw id.
  h.fake.addUser(ALICE);
  h.fake.addUser(BOB);
  return h;
}

/** Alice types /rl start 5000 and confirms it: the public approval request the bot posts, with its buttons. */
async function request(harness: SlackHarness) {
  const promptUrl = harness.fake.responseUrl();
  await harness.slash(slashCommand({ text: "start 5000", responseUrl: promptUrl }));
  const prompt = await harness.fake.waitForResponse((r) => promptUrl.endsWith(`/${r.id}`));
  const [confirm] = buttonsOf(prompt.body.blocks);
  await harness.click(buttonClick({ button: confirm!, responseUrl: harness.fake.responseUrl(), ephemeral: true }));
  const posted = await harness.fake.waitForCall("chat.postMessage", (c) =>
    String(c.body.text).startsWith("Approval needed"),
  );
  const [approve, deny] = buttonsOf(posted.body.blocks);
  if (!approve || !deny) throw new Error("the request has no Approve/Deny buttons");
  const id = /request (\w{10})|approve (\w{10})/.exec(textOf(posted.body.blocks));
  return { posted, approve, deny, id: id?.[1] ?? id?.[2] ?? "" };
}

/** The request's message ts, once the adapter recorded it (just after Slack took the post). */
async function recordedTs(harness: SlackHarness, id: string): Promise<string> {
  await vi.waitFor(() => expect(harness.services.approvals.get(id)?.message).toBeDefined());
  return harness.services.approvals.get(id)!.message!.id;
}

/** The chat.update that closes the request's message (its ts as the adapter recorded it), once it says `verb`. */
async function closedMessage(harness: SlackHarness, id: string, verb: string) {
  const ts = await recordedTs(harness, id);
  const update = await harness.fake.waitForCall(
    "chat.update",
    (c) => c.body.ts === ts && String(c.body.text).startsWith(verb),
  );
  expect(buttonsOf(update.body.blocks)).toEqual([]);
  return update;
}

const click = async (harness: SlackHarness, button: Parameters<typeof buttonClick>[0]["button"], user = BOB) => {
  const url = harness.fake.responseUrl();
  await harness.click(buttonClick({ button, responseUrl: url, user }));
  return url;
};
/** The private refusal sent to a click's response_url ("Not allowed", or "Could not do that" when it is closed). */
const refusalAt = (harness: SlackHarness, url: string) =>
  harness.fake.waitForResponse(
    (r) => url.endsWith(`/${r.id}`) && /^(Not allowed|Could not do that)/.test(String(r.body.text)),
  );

describe("Slack approvals", () => {
  it("refuses the asker's own Approve (an admin too) and starts the run on another approver's; a replay does nothing", async () => {
    const harness = await start();
    const { posted, approve, id } = await request(harness);
    expect([approve.text.text]).toEqual(["Approve"]);
    // The approvers are people as Slack shows them, never the raw "slack:U…" entries of RL_APPROVERS.
    const asked = textOf(posted.body.blocks);
    expect(asked).toContain("*Approvers*\nalice, bob");
    expect(asked).not.toContain("slack:U");
    expect(t.started).toEqual([]);

    const own = await refusalAt(harness, await click(harness, approve, ALICE));
    expect(own.body.response_type).toBe("ephemeral");
    expect(textOf(own.body.blocks)).toContain("cannot approve or deny it yourself");
    expect(t.started).toEqual([]);
    // Refused before anything shows in public: no "Working on /rl approve…" flashes in the channel.
    const working = () =>
      harness.fake.calls.filter((c) => c.method === "chat.postMessage" && String(c.body.text).startsWith("Working on"));
    expect(working()).toEqual([]);

    await click(harness, approve, BOB);
    // Approving is slow work: a public "Working on /rl approve…" message is edited into the run's answer.
    const started = await harness.fake.waitForCall("chat.update", (c) =>
      String(c.body.text).startsWith(`Started for ${ALICE.id}`),
    );
    expect(textOf(started.body.blocks)).toMatch(/Approved by .* at \d{4}-\d\d-\d\dT/);
    expect(t.started).toEqual([{ user: ALICE.id, steps: 5000 }]);
    expect(harness.services.approvals.get(id)).toMatchObject({ state: "approved", answeredBy: BOB.id });
    const closed = await closedMessage(harness, id, "Approved");
    expect(textOf(closed.body.blocks)).toMatch(
      /Approved by bob at \d{4}-\d\d-\d\dT[\d:]+Z: \/rl start "5000", asked by alice/,
    );

    const replay = await refusalAt(harness, await click(harness, approve, BOB));
    expect(textOf(replay.body.blocks)).toContain("already approved");
    expect(t.started).toHaveLength(1);
    // The replay edits nothing again: the message was closed once.
    const edits = harness.fake.calls.filter((c) => c.method === "chat.update" && c.body.ts === closed.body.ts);
    expect(edits).toHaveLength(1);
  });

  it("closes the message on a denial: nothing runs, and the buttons are gone", async () => {
    const harness = await start();
    const { deny, id } = await request(harness);
    const url = await click(harness, deny, BOB);
    const closed = await closedMessage(harness, id, "Denied");
    expect(textOf(closed.body.blocks)).toContain("Denied by bob");
    expect(t.started).toEqual([]);
    // One "Denied" in the channel: the request's own message. The decider alone hears it was done.
    const told = await harness.fake.waitForResponse(
      (r) => url.endsWith(`/${r.id}`) && String(r.body.text).startsWith("Denied"),
    );
    expect(told.body.response_type).toBe("ephemeral");
    const posts = harness.fake.calls.filter((c) => c.method === "chat.postMessage");
    expect(posts.filter((c) => String(c.body.text).includes("Denied"))).toEqual([]);
  });

  it("does nothing for an expired request", async () => {
    const harness = await start();
    const { approve, id } = await request(harness);
    await recordedTs(harness, id);
    skew = 31 * 60_000;
    // The expiry timer's pass, run now: the request's message says it expired, with nothing left to click.
    expect(harness.services.approvalExpiry.sweep()).toBe(1);
    const closed = await closedMessage(harness, id, "Expired");
    expect(textOf(closed.body.blocks)).toContain("Nothing ran");
    const late = await refusalAt(harness, await click(harness, approve, BOB));
    expect(textOf(late.body.blocks)).toContain("expired");
    expect(t.started).toEqual([]);
    expect(harness.services.approvals.get(id)).toMatchObject({ state: "pending" });
  });
});
