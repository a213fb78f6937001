import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import type { Reply } from "../../src/reply.ts";
import { createServices, type Services } from "../../src/services.ts";
import { delay } from "../../src/training/wait-until.ts";
import { tempDir } from "../helpers/test-services.ts";

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

interface Task {
  expression: string;
  run: () => Promise<void>;
  destroyed: boolean;
}

describe("digest schedule", () => {
  it("registers the configured cron and the minute alert check, and a firing posts a digest", async () => {
    const tasks: Task[] = [];
    const clock = 7_000_000;
    const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent", RL_DIGEST_CRON: "*/5 * * * *" }, tempDir()), {
      now: () => clock,
      schedule: (expression, run) => {
        const task: Task = { expression, run, destroyed: false };
        tasks.push(task);
        return { destroy: () => void (task.destroyed = true) };
      },
    });
    opened.push(s);
    const channel = { platform: "slack", workspace: "T", channel: "C" };
    s.runs.insert({ id: "f00d0001", channel, environment: "parity", config: {}, status: "running", createdBy: "U1" });
    s.runs.update("f00d0001", { startedAt: clock - 600_000, totalSteps: 10, thread: "111.222" });
    const log = s.manager.logPath("f00d0001", "trainer");
    mkdirSync(path.dirname(log), { recursive: true });
    writeFileSync(log, "Step 0/10\nReward/mean: 0.5\nStep 0 complete - Loss: 1\n");
    const posted: Array<{ thread?: string; reply: Reply }> = [];
    s.outboxSender.register("slack", async (target, reply) => {
      posted.push({ thread: target.thread, reply });
      return {};
    });

    s.digests.start();
    s.outboxSender.start();
    // The minute's alert check runs at :30, never at the same second as a digest schedule.
    expect(tasks.map((t) => t.expression)).toEqual(["*/5 * * * *", "30 * * * * *"]);
    expect(posted).toEqual([]);
    void tasks[0]!.run();
    for (let i = 0; i < 100 && posted.length === 0; i++) {
      await delay(20);
      await s.outboxSender.drain();
    }
    expect(posted[0]?.reply.title).toBe("📈 Digest: run f00d0001");
    expect(posted[0]?.thread).toBe("111.222");
    await s.digests.stop();
    expect(tasks.every((t) => t.destroyed)).toBe(true);
  });

  it("skips, and logs, a tick that fires while a pass is still under way: passes never overlap", async () => {
    const tasks: Task[] = [];
    const lines: string[] = [];
    const log = {
      debug: () => undefined,
      info: (m: string) => void lines.push(m),
      warn: () => undefined,
      error: (m: string) => void lines.push(m),
    };
    const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent" }, tempDir()), {
      log,
      schedule: (expression, run) => {
        tasks.push({ expression, run, destroyed: false });
        return { destroy: () => undefined };
      },
    });
    opened.push(s);
    const channel = { platform: "slack", workspace: "T", channel: "C" };
    for (let i = 0; i < 200; i++) {
      const id = `f00e${String(i).padStart(4, "0")}`;
      s.runs.insert({ id, channel, environment: "parity", config: {}, status: "running", createdBy: "U1" });
      const file = s.manager.logPath(id, "trainer");
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, "Step 0/10\nReward/mean: 0.5\n");
    }
    s.digests.start();
    const first = tasks[0]!.run();
    const second = tasks[1]!.run();
    await Promise.all([first, second]);
    expect(lines.filter((l) => l.includes("this tick is skipped"))).toHaveLength(1);
    expect(s.db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'digest'").get()).toEqual({ n: 1 });
  });

  it("refuses a bad cron expression at start, naming the setting", () => {
    expect(() => loadConfig({ RL_DIGEST_CRON: "every half hour" }, tempDir())).toThrow(
      /RL_DIGEST_CRON has a bad value: expected a cron expression/,
    );
  });
});
