// A real run on the demo stack through Discord: select, start, Confirm, status, Stop, Confirm, notices in the run's thread.
import { afterEach, describe, expect, it } from "vitest";
import { COMMANDS } from "../../commands/index.ts";
import { DEMO_STACK_ROOT } from "../../src/config.ts";
import { processStartTime } from "../../src/process/process-info.ts";
import type { RecordedCall } from "../fakes/discord-gateway.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";
import {
  bodyOf,
  buttonsOf,
  fieldsOf,
  isEditOriginal,
  isFollowup,
  messageIdOf,
  startHarness,
  stopHarness,
  titleOf as title,
  type Harness,
} from "./harness.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { READY_TIMEOUT_SECONDS } from "../helpers/ceiling.ts";

let h: Harness | undefined;

afterEach(async () => {
  const harness = h;
  h = undefined;
  if (!harness) return;
  for (const run of harness.services.runs.listByStatus(["queued", "starting", "running"])) {
    await harness.services.manager.stop(run.id, "test cleanup").catch(() => undefined);
  }
  await stopHarness(harness);
});

/** Polls `check` (bounded, no timing assertion) until it holds. */
/** The bot as main.ts builds it (createBot) with Discord and the real commands, on the demo stack with free ports. */
async function start(steps = { totalSteps: 400, stepSeconds: 0.1 }): Promise<Harness> {
  const lockedFile = await demoLockedFields(tempDir("rl-discord-demo-"), steps);
  const harness = await startHarness({
    env: {
      RL_TRAINING_ROOT: DEMO_STACK_ROOT,
      // Empty means unset: the demo stack's own environments folder.
      RL_ENVIRONMENTS_DIR: "",
      RL_LOCKED_FIELDS: lockedFile,
      RL_STOP_GRACE_SECONDS: "3",
      RL_READY_TIMEOUT_SECONDS: READY_TIMEOUT_SECONDS,
    },
    adapter: { commands: COMMANDS },
  });
  h = harness;
  return harness;
}

const flagsOf = (call: RecordedCall): number => {
  const body = bodyOf(call);
  const data = (typeof body["type"] === "number" ? body["data"] : body) as { flags?: number } | undefined;
  return data?.flags ?? 0;
};

describe("a demo run through Discord", () => {
  it("selects, starts after Confirm, reports status, stops after Confirm, with notices in the run's thread", async () => {
    const harness = await start();
    const { fake, services } = harness;
    const threadPost = (threadId: string, match: (c: RecordedCall) => boolean, what: string) =>
      fake.waitForCall(
        (c) => c.method === "POST" && c.path === `/channels/${threadId}/messages` && c.status < 300 && match(c),
        what,
      );

    // The answer comes in the callback, or (after about a second of work) as the edit of a deferred one.
    const select = fake.slash("select", { name: "arithmetic" });
    const first = await select.callback();
    const selected =
      bodyOf(first)["type"] === 5
        ? await fake.waitForCall((c) => isEditOriginal(select.token)(c) && title(c) !== "", "the selection")
        : first;
    expect(title(selected)).toBe("Selected arithmetic");
    expect(services.channels.selectedEnvironment(harness.channel)).toBe("arithmetic");

    // /rl start asks first, privately, with Confirm and Cancel.
    const prompt = await fake.slash("start").callback();
    expect(bodyOf(prompt)["type"]).toBe(4);
    expect(flagsOf(prompt)).toBe(64);
    expect(title(prompt)).toBe("Start training arithmetic?");
    const [confirm, cancel] = buttonsOf(prompt);
    expect([confirm?.label, cancel?.label]).toEqual(["Confirm", "Cancel"]);
    expect(services.runs.listByStatus(["queued", "starting", "running"])).toEqual([]);

    // Confirm closes the prompt (type 7) and the running answer follows publicly.
    const click = fake.click(messageIdOf(prompt), confirm!.custom_id);
    expect(bodyOf(await click.callback())["type"]).toBe(7);
    const answer = await fake.waitForCall(
      (c) => isFollowup(click.token)(c) && /\): running$/.test(title(c)),
      "the running answer",
    );
    expect(flagsOf(answer)).toBe(0);
    const runId = /Run (\S+) \(arithmetic\): running/.exec(title(answer))?.[1];
    if (!runId) throw new Error(`no run id in "${title(answer)}"`);
    expect(services.runs.get(runId)?.status).toBe("running");
    const runMessage = messageIdOf(answer);
    expect(await harness.anchored(runId)).toEqual({ runId, channel: harness.channel, id: runMessage });
    expect(services.runs.get(runId)?.thread).toBe(runMessage);
    // A thread started from the run's message, named after it; on Discord its id is the message's.
    const created = await fake.waitForCall(
      (c) => c.method === "POST" && c.path === `/channels/${fake.ids.channel}/messages/${runMessage}/threads`,
      "the run's thread",
    );
    expect(created.status).toBe(201);
    expect(bodyOf(created)["name"]).toBe(`🏃 Run ${runId} (arithmetic): running`);
    expect(fake.message(runMessage)?.["thread"]).toMatchObject({ id: runMessage, parent_id: fake.ids.channel });

    // The started notice reaches the run's thread through the outbox and the adapter's post().
    const startedNotice = await threadPost(
      runMessage,
      (c) => title(c).startsWith(`🏃 Run started: ${runId}`),
      "the started notice",
    );
    expect(fieldsOf(startedNotice)["Run"]).toBe(runId);

    // /rl status <id>: the step and the processes.
    await waitFor(
      async () => ((await services.report.status(services.runs.get(runId)!)).step ?? 0) >= 1,
      "the first step",
    );
    const status = await fake.slash("status", { run: runId }).callback();
    expect(title(status)).toBe(`🏃 Run ${runId} (arithmetic): running`);
    expect(fieldsOf(status)["Step"]).toMatch(/^[1-9]\d* \/ 400$/);
    expect(fieldsOf(status)["Processes"]).toBe("api running, trainer running, env running");

    // Stop on the run's message asks first (ephemeral); Confirm stops it.
    const stop = buttonsOf(answer).find((b) => b.label === "Stop");
    if (!stop) throw new Error("the run's message has no Stop button");
    const stopPrompt = await fake.click(runMessage, stop.custom_id).callback();
    expect(flagsOf(stopPrompt)).toBe(64);
    expect(title(stopPrompt)).toBe(`Stop run ${runId} (arithmetic)?`);
    const [confirmStop] = buttonsOf(stopPrompt);
    expect(confirmStop?.label).toBe("Confirm");
    const stopClick = fake.click(messageIdOf(stopPrompt), confirmStop!.custom_id);
    const stopped = await fake.waitForCall(
      (c) => isFollowup(stopClick.token)(c) && title(c) === `⏹ Run ${runId} (arithmetic): stopped`,
      "the stopped answer",
    );
    expect(flagsOf(stopped)).toBe(0);
    expect(services.runs.get(runId)).toMatchObject({ status: "stopped", stoppedBy: "alice" });

    // Every demo process is gone (no /proc/PID/stat), and the stopped notice answers the run's message.
    const pids = services.processes.list(runId).map((p) => p.pid);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(pid !== undefined && processStartTime(pid) === undefined).toBe(true);
    const stoppedNotice = await threadPost(
      runMessage,
      (c) => title(c).startsWith(`⏹ Run stopped: ${runId}`),
      "the stopped notice",
    );
    expect(bodyOf(stoppedNotice)["message_reference"]).toBeUndefined();
    // Nothing about the run went to the channel after its answer.
    expect(
      fake.calls.filter(
        (c) => c.method === "POST" && c.path === `/channels/${fake.ids.channel}/messages` && title(c).includes(runId),
      ),
    ).toEqual([]);
  });

  it("runs a 2-value sweep in a thread of its message, the message edited as the runs move, the comparison in the thread", async () => {
    const harness = await start({ totalSteps: 4, stepSeconds: 0.05 });
    const { fake, services } = harness;
    await services.env.selectEnvironment(harness.channel, "arithmetic");
    const prompt = await fake.slash("sweep", { grid: "temperature=0.2,1.8" }).callback();
    expect(title(prompt)).toBe("Start a sweep of arithmetic: 2 runs?");
    const [confirm] = buttonsOf(prompt);
    const click = fake.click(messageIdOf(prompt), confirm!.custom_id);
    const answer = await fake.waitForCall(
      (c) => isFollowup(click.token)(c) && /^🧪 Sweep s\w+ \(arithmetic\): 2 runs$/.test(title(c)),
      "the sweep's message",
    );
    const sweepId = /Sweep (s\w+)/.exec(title(answer))![1]!;
    const message = messageIdOf(answer);
    const runs = services.runs.listBySweep(sweepId);

    // A thread started from the sweep's message: every run's notices and the comparison go there.
    const created = await fake.waitForCall(
      (c) => c.method === "POST" && c.path === `/channels/${fake.ids.channel}/messages/${message}/threads`,
      "the sweep's thread",
    );
    expect(created.status).toBe(201);
    expect(bodyOf(created)["name"]).toBe(`🧪 Sweep ${sweepId} (arithmetic): 2 runs`);
    expect(runs.map((r) => services.runs.get(r.id)?.thread)).toEqual([message, message]);
    const comparison = await fake.waitForCall(
      (c) =>
        c.method === "POST" &&
        c.path === `/channels/${message}/messages` &&
        title(c).startsWith(`📊 Sweep ${sweepId} (arithmetic): finished, 2 runs compared`),
      "the comparison in the thread",
    );
    expect(comparison.status).toBe(200);

    // The message itself is edited (its channel's message, by the bot) until both runs are done.
    const last = await fake.waitForCall(
      (c) =>
        c.method === "PATCH" &&
        c.path === `/channels/${fake.ids.channel}/messages/${message}` &&
        /Finished: 2 completed, 0 failed\./.test(JSON.stringify(bodyOf(c))),
      "the sweep message's last state",
    );
    expect(last.status).toBe(200);
    for (const run of runs)
      expect(fieldsOf(last)[`Run ${run.id}`]).toMatch(/^temperature=(0\.2|1\.8) · ✅ done, reward/);
    // Folded: nothing but the comparison posted in the thread, nothing about the sweep in the channel after its message.
    const inThread = fake.calls.filter((c) => c.method === "POST" && c.path === `/channels/${message}/messages`);
    expect(inThread.map(title)).toEqual([expect.stringMatching(/^📊 Sweep/)]);
    expect(
      fake.calls.filter((c) => c.method === "POST" && c.path === `/channels/${fake.ids.channel}/messages`),
    ).toEqual([]);
  });
});
