import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { RlError } from "../../src/errors.ts";
import { delay } from "../../src/training/wait-until.ts";
import type { Reply } from "../../src/reply.ts";
import { createServices, type Services } from "../../src/services.ts";
import { nextEvent, startDemo, type DemoStack } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";

const opened: Services[] = [];
const stacks: DemoStack[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) {
    for (const run of s.services.runs.listByStatus(["queued", "starting", "running"]))
      await s.services.manager.stop(run.id, "cleanup").catch(() => undefined);
    await s.services.close();
  }
  for (const s of opened.splice(0)) await s.close();
});

const slack = { platform: "slack", workspace: "T1", channel: "C1" };

describe("run notices", () => {
  it("queues started and failed notices, in the run's thread, with the failed component's log tail", async () => {
    const stack = await startDemo({ totalSteps: 400, stepSeconds: 0.1 });
    stacks.push(stack);
    const { services } = stack;
    await services.env.selectEnvironment(slack, "parity");
    const failed = nextEvent(services, "failed");
    const run = await services.manager.start({ channel: slack, userId: "U1" });
    // The start reply is posted after the run started and becomes its thread (as the Slack adapter does).
    services.runs.update(run.id, { thread: "1700000000.000100" });
    const trainer = services.processes.list(run.id).find((p) => p.component === "trainer")!;
    process.kill(trainer.pid!, "SIGKILL");
    await failed;

    const sent: Array<{ thread?: string; reply: Reply }> = [];
    services.outboxSender.register("slack", async (target, reply) => {
      sent.push({ thread: target.thread, reply });
      return { id: String(sent.length) };
    });
    // The sender spaces posts to one channel by about a second, as Slack asks.
    while (services.outbox.pending() > 0) {
      await services.outboxSender.drain();
      await delay(100);
    }
    const titles = sent.map((m) => m.reply.title);
    expect(titles[0]).toMatch(/^🏃 Run started: /);
    expect(titles[1]).toMatch(/^❌ Run failed: /);
    expect(sent.every((m) => m.thread === "1700000000.000100")).toBe(true);
    const failure = sent[1]!.reply;
    expect(failure.fields).toEqual(
      expect.arrayContaining([
        { label: "Component", value: "trainer" },
        { label: "Exit", value: "SIGKILL" },
      ]),
    );
    expect(failure.blocks?.[0]?.title).toBe("Last lines of the trainer log");
  });
});

describe("outbox delivery", () => {
  it("sends what a crashed bot left unsent exactly once, and never queues a notice twice", async () => {
    const cwd = tempDir();
    let clock = 5_000_000;
    const open = () => {
      const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent" }, cwd), { now: () => clock });
      opened.push(s);
      return s;
    };
    const first = open();
    const message = {
      dedupeKey: "notice:r1:started",
      target: { channel: slack },
      kind: "notice" as const,
      runId: "r1",
      reply: { title: "started" },
    };
    expect(first.outbox.enqueue(message, clock)).toBe(true);
    expect(first.outbox.enqueue(message, clock)).toBe(false);
    first.outbox.enqueue({ ...message, dedupeKey: "notice:r1:completed", reply: { title: "completed" } }, clock);
    first.db.close(); // the bot dies before sending anything

    const second = open();
    expect(second.outbox.enqueue(message, clock)).toBe(false);
    const sent: string[] = [];
    second.outboxSender.register("slack", async (_t, reply) => {
      sent.push(reply.title ?? "");
      return {};
    });
    for (let i = 0; i < 5; i++) {
      await second.outboxSender.drain();
      clock += 2000;
    }
    expect(sent).toEqual(["started", "completed"]);
  });

  it("holds a run's notice until the run's reply has become its thread, for a few seconds at most", async () => {
    let clock = 3_000_000;
    const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent" }, tempDir()), { now: () => clock });
    opened.push(s);
    for (const id of ["a1", "b2"])
      s.runs.insert({ id, channel: slack, environment: "parity", config: {}, status: "running", createdBy: "U1" });
    for (const id of ["a1", "b2"])
      s.outbox.enqueue(
        {
          dedupeKey: `notice:${id}:started`,
          target: { channel: slack },
          kind: "notice",
          runId: id,
          reply: { title: id },
        },
        clock,
      );
    const sent: Array<[string | undefined, string | undefined]> = [];
    s.outboxSender.register("slack", async (target, reply) => {
      sent.push([reply.title, target.thread]);
      return {};
    });
    await s.outboxSender.drain();
    expect(sent).toEqual([]);
    s.runs.update("a1", { thread: "999.1" });
    clock += 1200;
    await s.outboxSender.drain();
    expect(sent).toEqual([["a1", "999.1"]]);
    clock += 5000;
    await s.outboxSender.drain();
    expect(sent).toEqual([
      ["a1", "999.1"],
      ["b2", undefined],
    ]);
  });

  it("retries a failed post with backoff, honouring Retry-After, then delivers it", async () => {
    let clock = 9_000_000;
    const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent" }, tempDir()), { now: () => clock });
    opened.push(s);
    s.outbox.enqueue(
      { dedupeKey: "notice:r2:failed", target: { channel: slack }, kind: "notice", reply: { title: "failed" } },
      clock,
    );
    let calls = 0;
    s.outboxSender.register("slack", async () => {
      calls++;
      if (calls === 1) throw new RlError("RATE_LIMITED", "slow down", { details: { retryAfterMs: 30_000 } });
      if (calls === 2) throw new Error("socket hang up");
      return { id: "ok" };
    });
    await s.outboxSender.drain();
    expect(calls).toBe(1);
    clock += 29_000;
    await s.outboxSender.drain();
    expect(calls).toBe(1);
    clock += 2_000;
    await s.outboxSender.drain();
    expect(calls).toBe(2);
    clock += 4_000;
    await s.outboxSender.drain();
    expect(calls).toBe(3);
    expect(s.outbox.pending()).toBe(0);
  });
});
