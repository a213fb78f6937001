// The policy end to end through the real Bolt app: signed slash commands and button clicks against the fake Slack Web API.
import { afterEach, describe, expect, it } from "vitest";
import { ALICE, BOB, CHANNEL, TEAM, buttonClick, slashCommand } from "../slack/slack-payloads.ts";
import { buttonsOf, startSlackHarness, textOf, type SlackHarness } from "../slack/slack-harness.ts";

const CAROL = { id: "U0CAROL", name: "carol" };
const ADMIN = { id: "U0ADMIN", name: "admin" };

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Alice and Bob operate, the admin administers, Carol (like everyone else) only reads. */
async function start(): Promise<SlackHarness> {
  h = await startSlackHarness({
    env: { RL_DEFAULT_ROLE: "read", RL_OPERATORS: `slack:${ALICE.id},slack:${BOB.id}`, RL_ADMINS: `slack:${ADMIN.id}` },
  });
  return h;
}

async function typed(harness: SlackHarness, text: string, user: { id: string; name: string }) {
  const responseUrl = harness.fake.responseUrl();
  await harness.slash(slashCommand({ text, responseUrl, user }));
  return harness.fake.waitForResponse((r) => responseUrl.endsWith(`/${r.id}`));
}

describe("access control over Slack", () => {
  it("refuses a read-only person's /rl select privately, naming who may, and audits it", async () => {
    const harness = await start();
    const response = await typed(harness, "select probe", CAROL);
    expect(response.body.response_type).toBe("ephemeral");
    expect(String(response.body.text)).toMatch(/^Not allowed/);
    const text = textOf(response.body.blocks);
    expect(text).toContain("/rl select needs the operate permission; you have read.");
    // Named as people (here by id: the Slack stand-in knows no names for them), never as policy entries.
    expect(text).toContain(`Ask one of: ${ADMIN.id}, ${ALICE.id}`);
    expect(text).not.toContain(`slack:${ALICE.id}`);
    expect(
      harness.services.channels.selectedEnvironment({ platform: "slack", workspace: TEAM, channel: CHANNEL }),
    ).toBeUndefined();
    expect(harness.services.audit.latest(1)[0]).toMatchObject({
      platform: "slack",
      channel: CHANNEL,
      userId: CAROL.id,
      command: "select",
      outcome: "refused",
    });
    expect(harness.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(0);
  });

  it("refuses an operator's Confirm click on another person's Stop; the admin's click stops the run", async () => {
    const harness = await start();
    harness.services.runs.insert({
      id: "feed0001",
      channel: { platform: "slack", workspace: TEAM, channel: CHANNEL },
      environment: "probe",
      config: {},
      status: "queued",
      createdBy: ALICE.id,
    });

    // Alice, the starter, is asked to confirm; her prompt's Confirm button is what the others click.
    const prompt = await typed(harness, "stop feed0001", ALICE);
    const [confirm] = buttonsOf(prompt.body.blocks);
    if (!confirm) throw new Error("no Confirm button on the prompt");
    expect(confirm.text.text).toBe("Confirm");

    // Bob operates, but the prompt is not his: refused privately, the prompt stays Alice's to answer, and the run goes on.
    const bobUrl = harness.fake.responseUrl();
    await harness.click(buttonClick({ button: confirm, responseUrl: bobUrl, user: BOB, ephemeral: true }));
    const refusal = await harness.fake.waitForResponse(
      (r) => bobUrl.endsWith(`/${r.id}`) && String(r.body.text).startsWith("Not allowed"),
    );
    expect(textOf(refusal.body.blocks)).toContain(`Only ${ALICE.name} or an admin can answer this prompt.`);
    expect(refusal.body).toMatchObject({ response_type: "ephemeral", replace_original: false });
    expect(harness.services.runs.get("feed0001")?.status).toBe("queued");
    expect(harness.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(0);

    // Typed, Bob is refused before any prompt.
    const typedByBob = await typed(harness, "stop feed0001", BOB);
    expect(String(typedByBob.body.text)).toMatch(/^Not allowed/);
    expect(buttonsOf(typedByBob.body.blocks)).toHaveLength(0);

    // The admin's click on the same button stops it, in public, as the admin.
    await harness.click(
      buttonClick({ button: confirm, responseUrl: harness.fake.responseUrl(), user: ADMIN, ephemeral: true }),
    );
    const posted = await harness.fake.waitForCall("chat.postMessage", (c) => String(c.body.text).includes("stopped"));
    expect(String(posted.body.text)).toContain("Run feed0001 (probe): stopped");
    expect(textOf(posted.body.blocks)).toContain(`<@${ADMIN.id}> confirmed`);
    expect(harness.services.runs.get("feed0001")).toMatchObject({ status: "stopped", stoppedBy: ADMIN.name });
    expect(harness.services.audit.latest(10).map((a) => [a.userId, a.command, a.outcome])).toEqual([
      [ADMIN.id, "stop", "ok"],
      [ADMIN.id, "confirm", "ok"],
      [BOB.id, "stop", "refused"],
      [BOB.id, "confirm", "refused"],
    ]);
  });

  it("keeps /rl audit to admins", async () => {
    const harness = await start();
    await typed(harness, "select probe", CAROL);
    const refused = await typed(harness, "audit", ALICE);
    expect(textOf(refused.body.blocks)).toContain("/rl audit needs the admin permission; you have operate.");
    const shown = await typed(harness, "audit 5", ADMIN);
    expect(shown.body.response_type).toBe("ephemeral");
    const text = textOf(shown.body.blocks);
    expect(text).toMatch(new RegExp(`slack:${CHANNEL}  ${ALICE.id}  audit  refused`));
    expect(text).toMatch(new RegExp(`slack:${CHANNEL}  ${CAROL.id}  select  refused`));
  });
});
