import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createConsoleAdapter } from "../../adapters/console/console.ts";
import { delay } from "../../src/training/wait-until.ts";
import { startDemo, type DemoStack } from "../helpers/demo-stack.ts";

const stacks: DemoStack[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) {
    for (const run of s.services.runs.listByStatus(["queued", "starting", "running"])) await s.services.manager.stop(run.id, "cleanup").catch(() => undefined);
    await s.services.close();
  }
});

describe("a demo-stack run in the console", () => {
  it("shows the started notice, a digest and the completed notice as they happen", async () => {
    const stack = await startDemo({ totalSteps: 30, stepSeconds: 0.1 });
    stacks.push(stack);
    const { services } = stack;
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = "";
    output.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
    const terminal = createConsoleAdapter(services, { input, output });
    services.digests.registerPoster(terminal.platform, (target, reply) => terminal.post(target, reply), { threads: terminal.threads });
    await terminal.start();

    input.write("/rl select parity\n/rl start\n");
    for (let i = 0; i < 600 && !/Run started/.test(printed); i++) await delay(50);
    input.write("/rl digest now\n");
    for (let i = 0; i < 1200 && !/Run completed/.test(printed); i++) {
      await services.digests.drain();
      await delay(50);
    }
    input.end();
    await terminal.done;

    const started = printed.indexOf("🏃 Run started");
    const digest = printed.indexOf("📈 Digest: run");
    const completed = printed.indexOf("✅ Run completed");
    expect(started).toBeGreaterThan(-1);
    expect(digest).toBeGreaterThan(started);
    expect(completed).toBeGreaterThan(digest);
    expect(printed).toMatch(/Training complete after 30 steps/);
    // The completed notice carries the final reward, the duration and the reward curve (a sparkline on the console).
    const notice = printed.slice(completed);
    expect(notice).toMatch(/\n {2}Duration: \d+s\n/);
    expect(notice).toMatch(/\n {2}Final reward: \d/);
    expect(notice).toMatch(/\nReward mean by step, run \S+: [▁▂▃▄▅▆▇█]{10,}\n/);
  });
});
