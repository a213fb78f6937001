// Paging through the real Bolt app: a 99-field /rl config, answered privately, is reachable whole through Next/Previous, replaced in place through response_url, within Block Kit's limits.
import { afterEach, describe, expect, it } from "vitest";
import { blockKitProblems } from "../fakes/slack-block-kit.ts";
import { bigFieldNames, writeBigEnvironment } from "../helpers/big-environment.ts";
import { CHANNEL, buttonClick, slashCommand } from "./slack-payloads.ts";
import { buttonsOf, startSlackHarness, textOf, type SlackHarness } from "./slack-harness.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(): Promise<SlackHarness> {
  const { root, envDir } = writeBigEnvironment();
  h = await startSlackHarness({ env: { RL_TRAINING_ROOT: root, RL_ENVIRONMENTS_DIR: envDir } });
  await h.services.env.selectEnvironment({ platform: "slack", workspace: "T0FAKE", channel: CHANNEL }, "big");
  return h;
}

const namesIn = (blocks: unknown): string[] => [...textOf(blocks).matchAll(/knob_\d\d/g)].map((m) => m[0]);

describe("Slack paging", () => {
  it("shows every field of a 99-field config across pages, Next and Previous replacing the private message in place", async () => {
    const harness = await start();
    const asker = { channel: CHANNEL, user: "U0ALICE" };
    await harness.slash(slashCommand({ text: "config", responseUrl: harness.fake.responseUrl(asker) }));
    const first = await harness.fake.waitForResponse((r) => String(r.body.text).startsWith("Config of big"));
    // A personal read: shown to the asker alone, never posted in the channel.
    expect(first.body.response_type).toBe("ephemeral");
    expect(harness.fake.calls.filter((c) => c.method === "chat.postMessage")).toEqual([]);
    const message = harness.fake.ephemerals.items.find((m) => String(m.text).startsWith("Config of big"));
    if (!message) throw new Error("no config message");
    expect(message.user).toBe("U0ALICE");
    expect(String(message.text)).toContain("(page 1 of ");
    const pageCount = Number(/page 1 of (\d+)/.exec(String(message.text))?.[1]);
    expect(pageCount).toBeGreaterThan(1);

    const seen = new Set(namesIn(message.blocks));
    const headings = new Set<string>();
    let blocks = message.blocks;
    for (let page = 2; page <= pageCount; page++) {
      expect(blockKitProblems(blocks)).toEqual([]);
      for (const heading of ["big's own fields", "Locked (infrastructure)", "Trainer (locked)"])
        if (textOf(blocks).includes(heading)) headings.add(heading);
      const next = buttonsOf(blocks).find((b) => b.text.text.startsWith("Next"));
      if (!next) throw new Error(`page ${page - 1} has no Next button`);
      await harness.click(
        buttonClick({
          button: next,
          responseUrl: harness.fake.responseUrl({ ...asker, messageTs: message.ts }),
          messageTs: message.ts,
          ephemeral: true,
        }),
      );
      const updated = await harness.fake.waitForResponse((r) =>
        String(r.body.text).includes(`(page ${page} of ${pageCount})`),
      );
      // An ephemeral message cannot be chat.update'd: its response_url replaces it.
      expect(updated.body.replace_original).toBe(true);
      expect(message.text).toBe(updated.body.text);
      blocks = updated.body.blocks;
      for (const name of namesIn(blocks)) seen.add(name);
    }
    for (const heading of ["big's own fields", "Locked (infrastructure)", "Trainer (locked)"])
      if (textOf(blocks).includes(heading)) headings.add(heading);
    expect([...seen].sort()).toEqual(bigFieldNames());
    expect([...headings].sort()).toEqual(["Locked (infrastructure)", "Trainer (locked)", "big's own fields"]);
    expect(harness.fake.ephemerals.items.filter((m) => String(m.text).startsWith("Config of big"))).toHaveLength(1);
    // The last page has no Next, and Previous goes back.
    const buttons = buttonsOf(blocks);
    expect(buttons.map((b) => b.text.text)).toEqual(["◀ Previous", "Post to channel"]);
    await harness.click(
      buttonClick({
        button: buttons[0]!,
        responseUrl: harness.fake.responseUrl({ ...asker, messageTs: message.ts }),
        messageTs: message.ts,
        ephemeral: true,
      }),
    );
    await harness.fake.waitForResponse((r) => String(r.body.text).includes(`(page ${pageCount - 1} of ${pageCount})`));
    expect(harness.fake.calls.filter((c) => c.method === "chat.update")).toEqual([]);
  });

  it("filters by words and shows one field whole", async () => {
    const harness = await start();
    await harness.slash(slashCommand({ text: "config knob_4", responseUrl: harness.fake.responseUrl() }));
    const filtered = await harness.fake.waitForResponse((c) => String(c.body.text).startsWith("Config of big"));
    expect(String(filtered.body.text)).toContain('10 fields matching "knob_4"');
    expect(new Set(namesIn(filtered.body.blocks))).toEqual(
      new Set(bigFieldNames().filter((n) => n.startsWith("knob_4"))),
    );

    await harness.slash(slashCommand({ text: "config knob_42", responseUrl: harness.fake.responseUrl() }));
    const one = await harness.fake.waitForResponse((c) => String(c.body.text).startsWith("knob_42 (big)"));
    const text = textOf(one.body.blocks);
    for (const part of [
      "*Type*\nint",
      "*Default*\n42",
      "*Current*\n42",
      "*Bounds*\n≥ 0 and ≤ 1000",
      "knob_42: Controls how strongly",
    ])
      expect(text).toContain(part);
    expect(text).toContain(".".repeat(100));
  });
});
