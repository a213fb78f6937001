// A run's thread on Discord: started from its message with Discord's rules (one thread a message, 160004 on a second
// start, a name of 1-100 characters), found again after a restart, and started late for a message that has none yet.
import { DiscordAPIError, REST, Routes } from "discord.js";
import { describe, expect, it } from "vitest";
import { startThreadFrom } from "../../adapters/discord/discord-thread.ts";
import type { RecordedCall } from "../fakes/discord-gateway.ts";
import { drainUntilSent } from "../helpers/outbox-rows.ts";
import { harnessPerTest, titleOf, type Harness } from "./harness.ts";

const start = harnessPerTest();

const restOf = (harness: Harness): REST =>
  new REST({ api: harness.fake.apiUrl, retries: 0 }).setToken(harness.fake.token);

const threadStarts = (harness: Harness, messageId: string): RecordedCall[] =>
  harness.fake.calls.filter(
    (c) => c.method === "POST" && c.path === `/channels/${harness.fake.ids.channel}/messages/${messageId}/threads`,
  );

/** Refused by the fake as Discord would: the error discord.js throws. */
async function refusal(work: Promise<unknown>): Promise<DiscordAPIError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof DiscordAPIError)) throw new Error(`expected a DiscordAPIError, got ${String(err)}`);
  return err;
}

/** A run of #training whose notices go to `thread`, and a queued notice for it. */
function queueNotice(harness: Harness, runId: string, thread: string, kind = "failed"): string {
  if (!harness.services.runs.get(runId))
    harness.services.runs.insert({
      id: runId,
      channel: harness.channel,
      thread,
      environment: "foo",
      config: {},
      status: "failed",
      createdBy: "1000000000000000001",
    });
  const key = `notice:${runId}:${kind}`;
  harness.services.outbox.enqueue(
    { dedupeKey: key, target: { channel: harness.channel, thread }, kind: "notice", runId, reply: { title: key } },
    harness.services.now(),
  );
  return key;
}

describe("a run's Discord thread", () => {
  it("is started once from its message: a second start is 160004, and starting again finds the same thread", async () => {
    const h = await start();
    const { fake } = h;
    const rest = restOf(h);
    const message = String(fake.botMessage(fake.ids.channel, "🧪 Sweep s1234567 (foo): 2 runs")["id"]);

    const thread = await startThreadFrom(rest, fake.ids.channel, message, "Sweep s1234567 (foo)");
    expect(thread).toBe(message);
    expect(fake.state.channels.get(thread)).toMatchObject({
      type: 11,
      parent_id: fake.ids.channel,
      name: "Sweep s1234567 (foo)",
    });
    expect(fake.message(message)?.["thread"]).toMatchObject({ id: thread });

    const again = await refusal(
      rest.post(Routes.threads(fake.ids.channel, message), { body: { name: "Sweep s1234567 (foo)" } }),
    );
    expect([again.status, again.code, again.message]).toEqual([
      400,
      160004,
      "A thread has already been created for this message",
    ]);
    // As after a crash between starting the thread and recording it: the same thread, no second one.
    expect(await startThreadFrom(rest, fake.ids.channel, message, "Sweep s1234567 (foo)")).toBe(thread);
    expect(
      [...fake.state.channels.values()].filter((c) => c["parent_id"] === fake.ids.channel && c["id"] === message),
    ).toHaveLength(1);
  });

  it.each([
    ["an empty name", "", 50035],
    ["a name of 101 characters", "x".repeat(101), 50035],
  ])("is refused for %s", async (_what, name, code) => {
    const h = await start();
    const message = String(h.fake.botMessage(h.fake.ids.channel, "Run r1")["id"]);
    const err = await refusal(restOf(h).post(Routes.threads(h.fake.ids.channel, message), { body: { name } }));
    expect(err.code).toBe(code);
    expect(h.fake.message(message)?.["thread"]).toBeUndefined();
  });

  it("cannot be started inside a thread (50024), and the message's replies are used there", async () => {
    const h = await start();
    const message = String(h.fake.botMessage(h.fake.ids.thread, "Run r1")["id"]);
    const err = await refusal(restOf(h).post(Routes.threads(h.fake.ids.thread, message), { body: { name: "r1" } }));
    expect(err.code).toBe(50024);
  });

  it("is started late by the next notice for a message that has none (an older run, or a crash before it started)", async () => {
    const h = await start();
    const { fake } = h;
    const message = String(fake.botMessage(fake.ids.channel, "🏃 Run r1 (foo): running")["id"]);
    h.services.outboxSender.register("discord", h.adapter.post);

    await drainUntilSent(h.services, queueNotice(h, "r1", message, "failed"));
    const [started] = threadStarts(h, message);
    expect(started?.status).toBe(201);
    expect((started?.body as { name?: string }).name).toBe("🏃 Run r1 (foo): running");
    const inThread = fake.channelMessages(message);
    expect(inThread.map((m) => (m["embeds"] as Array<{ title?: string }>)[0]?.title)).toEqual(["notice:r1:failed"]);

    // The next notice finds the thread: no second start.
    await drainUntilSent(h.services, queueNotice(h, "r1", message, "lost"));
    expect(threadStarts(h, message)).toHaveLength(1);
    expect(fake.channelMessages(message)).toHaveLength(2);
  });

  it("keeps an older run whose message is gone working: its notice answers in the channel", async () => {
    const h = await start();
    const { fake } = h;
    h.services.outboxSender.register("discord", h.adapter.post);
    const gone = "1100000000009999999";
    await drainUntilSent(h.services, queueNotice(h, "r2", gone));
    const post = fake.calls.find(
      (c) =>
        c.method === "POST" && c.path === `/channels/${fake.ids.channel}/messages` && titleOf(c) === "notice:r2:failed",
    );
    expect(post?.status).toBe(200);
    expect((post?.body as { message_reference?: unknown }).message_reference).toMatchObject({ message_id: gone });
  });
});
