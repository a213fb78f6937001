import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createConsoleAdapter } from "../../adapters/console/console.ts";
import { startDemo, type DemoStack } from "../helpers/demo-stack.ts";
import { waitFor } from "../helpers/wait-for.ts";

const stacks: DemoStack[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) {
    for (const run of s.services.runs.listByStatus(["queued", "starting", "running"]))
      await s.services.manager.stop(run.id, "cleanup").catch(() => undefined);
    await s.services.close();
  }
});

/** The console on piped input, its output collected, notices printed through it as the bot does. */
async function typeAtConsole(services: DemoStack["services"]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = "";
  output.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
  const terminal = createConsoleAdapter(services, { input, output });
  services.outboxSender.register(terminal.platform, (target, reply) => terminal.post(target, reply), {
    threads: terminal.threads,
  });
  await terminal.start();
  return { input, printed: () => printed, done: terminal.done };
}

describe("a demo-stack run in the console", () => {
  it("shows the started notice, a digest and the completed notice as they happen", async () => {
    // The digest asked for once the run has started must be queued before the run completes: 9 s of training
    // leaves room for the console and the digest pass on a loaded machine.
    const stack = await startDemo({ totalSteps: 30, stepSeconds: 0.3 });
    stacks.push(stack);
    const { services } = stack;
    const { input, printed: out, done: consoleDone } = await typeAtConsole(services);

    input.write("/rl select parity\n/rl start\n");
    await waitFor(() => /Run started/.test(out()), "the run to start");
    input.write("/rl digest now\n");
    await waitFor(async () => {
      await services.outboxSender.drain();
      return /Run completed/.test(out());
    }, "the run to complete");
    input.end();
    await consoleDone;

    const started = out().indexOf("🏃 Run started");
    const digest = out().indexOf("📈 Digest: run");
    const completed = out().indexOf("✅ Run completed");
    expect(started).toBeGreaterThan(-1);
    expect(digest).toBeGreaterThan(started);
    expect(completed).toBeGreaterThan(digest);
    expect(out()).toMatch(/Training complete after 30 steps/);
    // The completed notice carries the final reward, the duration and the reward curve (a sparkline on the console).
    const notice = out().slice(completed);
    expect(notice).toMatch(/\n {2}Duration: \d+s\n/);
    expect(notice).toMatch(/\n {2}Final reward: \d/);
    expect(notice).toMatch(/\nReward mean by step, run \S+: [▁▂▃▄▅▆▇█]{10,}\n/);
  });
});

describe("a demo-stack sweep in the console", () => {
  it("runs a 2-value sweep typed at the console and prints its comparison with both rewards", async () => {
    const stack = await startDemo({ totalSteps: 4 });
    stacks.push(stack);
    const { services } = stack;
    const { input, printed: out, done: consoleDone } = await typeAtConsole(services);
    services.digests.start();
    services.outboxSender.start();

    input.write("/rl select arithmetic\n/rl sweep temperature=0.2,1.8\n");
    await waitFor(() => /📊 Sweep \w+ \(arithmetic\): finished/.test(out()), "the sweep to finish");
    input.end();
    await consoleDone;

    const sweepId = /🧪 Sweep (s\w+) \(arithmetic\): 2 runs/.exec(out())?.[1];
    expect(sweepId, out().slice(-2000)).toBeDefined();
    const runs = services.runs.listBySweep(sweepId!);
    expect(runs.map((r) => r.status)).toEqual(["completed", "completed"]);
    const comparison = out().slice(out().indexOf(`📊 Sweep ${sweepId} (arithmetic): finished, 2 runs compared`));
    expect(comparison).toMatch(/Best: run \w+ \(temperature=(0\.2|1\.8)\), reward -?\d/);
    for (const [i, run] of runs.entries())
      expect(comparison).toMatch(
        new RegExp(`${run.id}( ★)?\\s+${[0.2, 1.8][i]}\\s+-?\\d+(\\.\\d+)?\\s+4/4\\s+\\S+\\s+completed`),
      );
  });
});
