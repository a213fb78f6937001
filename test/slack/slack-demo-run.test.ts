// A real run on the demo stack through Slack: select, start, Confirm, status, Stop, Confirm, notices in the run's thread.
import { describe, expect, it } from "vitest";
import { processStartTime } from "../../src/process/process-info.ts";
import { ALICE, CHANNEL, TEAM, buttonClick } from "./slack-payloads.ts";
import { buttonsOf, textOf, type SlackHarness } from "./slack-harness.ts";
import { closeDemoSlackAfterEach, startDemoSlack } from "./slack-demo.ts";
import { answered, answeredAt, posted, seen, text, type } from "./slack-waits.ts";
import { waitFor } from "../helpers/wait-for.ts";

const keep = closeDemoSlackAfterEach();

/** Polls `check` (bounded, no timing assertion) until it holds. */
async function start(steps?: { totalSteps: number; stepSeconds: number }): Promise<SlackHarness> {
  return keep(await startDemoSlack(steps));
}

describe("a demo run through Slack", () => {
  it("selects, starts after Confirm, reports status, stops after Confirm, with notices in the run's thread", async () => {
    const harness = await start();
    const { fake, services } = harness;

    await type(harness, "select arithmetic");
    const selected = await answered(harness, (c) => text(c).startsWith("Selected arithmetic"), "the selection");
    expect(selected.body.channel).toBe(CHANNEL);

    // /rl start asks first, privately, with Confirm and Cancel.
    const startUrl = await type(harness, "start");
    const prompt = await seen(harness, fake.waitForResponse(answeredAt(startUrl)), "the start prompt");
    expect(prompt.body).toMatchObject({ response_type: "ephemeral", text: "Start training arithmetic?" });
    const [confirm, cancel] = buttonsOf(prompt.body.blocks);
    expect([confirm?.text.text, cancel?.text.text]).toEqual(["Confirm", "Cancel"]);
    expect(services.runs.listByStatus(["queued", "starting", "running"])).toEqual([]);

    // Confirm: "Working on…" is posted publicly, then edited into the run's answer.
    const confirmUrl = fake.responseUrl();
    const beforeConfirm = fake.calls.items.length;
    expect(
      (await harness.click(buttonClick({ button: confirm!, responseUrl: confirmUrl, ephemeral: true }))).status,
    ).toBe(200);
    const working = await posted(harness, (c) => text(c) === "Working on /rl start…", "the Working on… message");
    expect(working.body.channel).toBe(CHANNEL);
    const answer = await seen(
      harness,
      fake.waitForCall("chat.update", (c) => c.ok && /\): running\n/.test(text(c))),
      "the running answer",
    );
    const runTs = String(answer.body.ts);
    // Only chat.postMessage makes messages: the edited one is the "Working on…" message, and every edit since the
    // Confirm went to it (the selection, if discovery's first scan was slow, edited its own "Working on…" before).
    const edits = fake.calls.items.slice(beforeConfirm).filter((c) => c.method === "chat.update");
    expect(edits.every((c) => c.body.ts === runTs)).toBe(true);
    expect(fake.calls.filter((c) => c.method === "chat.delete")).toEqual([]);
    const runId = /Run (\S+) \(arithmetic\): running/.exec(text(answer))?.[1];
    if (!runId) throw new Error(`no run id in "${text(answer)}"`);
    expect(textOf(answer.body.blocks)).toContain(`<@${ALICE.id}> confirmed \`/rl start\``);
    const message = fake.messages.get(`${CHANNEL}:${runTs}`);
    expect(message?.text).toMatch(/\): running\n/);
    expect(message?.thread_ts).toBeUndefined();
    expect(services.runs.get(runId)?.status).toBe("running");

    // The run's message is its thread (main.ts's onAnchor), and the prompt is gone.
    expect(
      await seen(
        harness,
        harness.anchors.waitFor((a) => a.runId === runId),
        "the anchor",
      ),
    ).toEqual({ runId, channel: { platform: "slack", workspace: TEAM, channel: CHANNEL }, ts: runTs });
    expect(services.runs.get(runId)?.thread).toBe(runTs);
    await seen(
      harness,
      fake.waitForResponse((r) => answeredAt(confirmUrl)(r) && r.body.delete_original === true),
      "the prompt removed",
    );

    // The started notice goes into the run's thread through the digests' poster.
    const startedNotice = await posted(
      harness,
      (c) => text(c).startsWith(`🏃 Run started: ${runId}`),
      "the started notice",
    );
    expect(startedNotice.body).toMatchObject({ channel: CHANNEL, thread_ts: runTs });

    // /rl status <id>: the step and the processes.
    await waitFor(
      async () => ((await services.report.status(services.runs.get(runId)!)).step ?? 0) >= 1,
      "the first step",
    );
    const statusUrl = await type(harness, `status ${runId}`);
    // A status look-up is the asker's: answered privately, through the command's response_url.
    const status = await seen(harness, fake.waitForResponse(answeredAt(statusUrl)), "the status");
    expect(status.body.response_type).toBe("ephemeral");
    expect(String(status.body.text).startsWith(`🏃 Run ${runId} (arithmetic): running`)).toBe(true);
    const shown = textOf(status.body.blocks);
    expect(shown).toMatch(/\*Step\*\n[1-9]\d* \/ 400/);
    expect(shown).toContain("*Processes*\napi running, trainer running, env running");

    // Stop on the run's message asks first; Confirm stops it.
    const stop = buttonsOf(answer.body.blocks).find((b) => b.text.text === "Stop");
    if (!stop) throw new Error("the run's message has no Stop button");
    const stopUrl = fake.responseUrl();
    await harness.click(buttonClick({ button: stop, responseUrl: stopUrl, messageTs: runTs }));
    const stopPrompt = await seen(harness, fake.waitForResponse(answeredAt(stopUrl)), "the stop prompt");
    expect(stopPrompt.body.response_type).toBe("ephemeral");
    expect(String(stopPrompt.body.text).startsWith(`Stop run ${runId} (arithmetic)?\n`)).toBe(true);
    const [confirmStop] = buttonsOf(stopPrompt.body.blocks);
    expect(confirmStop?.text.text).toBe("Confirm");
    await harness.click(buttonClick({ button: confirmStop!, responseUrl: fake.responseUrl(), ephemeral: true }));
    const stopped = await posted(
      harness,
      (c) => text(c).startsWith(`⏹ Run ${runId} (arithmetic): stopped`),
      "the stopped answer",
    );
    expect(stopped.body.channel).toBe(CHANNEL);
    expect(services.runs.get(runId)).toMatchObject({ status: "stopped", stoppedBy: ALICE.name });

    // Every demo process is gone (no /proc/PID/stat), and the stopped notice is in the run's thread.
    const pids = services.processes.list(runId).map((p) => p.pid);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(pid !== undefined && processStartTime(pid) === undefined).toBe(true);
    const stoppedNotice = await posted(
      harness,
      (c) => text(c).startsWith(`⏹ Run stopped: ${runId}`),
      "the stopped notice",
    );
    expect(stoppedNotice.body).toMatchObject({ channel: CHANNEL, thread_ts: runTs });
  });

  it("starts one run for a Confirm click replayed, at the same moment and again once the run is up", async () => {
    const harness = await start();
    const { fake, services } = harness;
    await type(harness, "select arithmetic");
    await answered(harness, (c) => text(c).startsWith("Selected arithmetic"), "the selection");
    const startUrl = await type(harness, "start");
    const prompt = await seen(harness, fake.waitForResponse(answeredAt(startUrl)), "the start prompt");
    const [confirm] = buttonsOf(prompt.body.blocks);
    expect(confirm?.text.text).toBe("Confirm");

    // The same click payload twice at once, as a double click or a retried delivery would send it.
    const clickUrl = fake.responseUrl();
    const payload = buttonClick({ button: confirm!, responseUrl: clickUrl, ephemeral: true });
    await Promise.all([harness.click(payload), harness.click(payload)]);
    const answer = await seen(
      harness,
      fake.waitForCall("chat.update", (c) => c.ok && /\): running\n/.test(text(c))),
      "the running answer",
    );
    const runId = /Run (\S+) \(arithmetic\): running/.exec(text(answer))?.[1];
    expect(runId).toBeDefined();
    const replayed = (r: { id: string; body: Record<string, unknown> }) =>
      answeredAt(clickUrl)(r) && textOf(r.body.blocks).includes("already answered");
    await seen(harness, fake.waitForResponse(replayed), "the replay's answer");

    // And once more, seconds later, with the run going: still already answered, still one run.
    await harness.click(payload);
    await waitFor(() => fake.responses.filter(replayed).length === 2, "the second replay's answer");
    for (const r of fake.responses.filter(replayed)) {
      expect(r.body).toMatchObject({ response_type: "ephemeral", replace_original: false });
      expect(textOf(r.body.blocks)).toContain(`This was already answered (confirmed by ${ALICE.name}).`);
    }
    expect(services.runs.listAll(10).map((r) => r.id)).toEqual([runId]);
    expect(services.runs.get(runId!)?.status).toBe("running");
    expect(
      fake.calls.filter((c) => c.method === "chat.postMessage" && text(c) === "Working on /rl start…"),
    ).toHaveLength(1);
  });

  it("runs a 2-value sweep after one Confirm: its message edited as the runs move, the comparison of both rewards in its thread", async () => {
    const harness = await start({ totalSteps: 4, stepSeconds: 0.05 });
    const { fake, services } = harness;
    await services.env.selectEnvironment({ platform: "slack", workspace: TEAM, channel: CHANNEL }, "arithmetic");

    const sweepUrl = await type(harness, "sweep temperature=0.2,1.8");
    const prompt = await seen(harness, fake.waitForResponse(answeredAt(sweepUrl)), "the sweep prompt");
    expect(prompt.body).toMatchObject({ response_type: "ephemeral", text: "Start a sweep of arithmetic: 2 runs?" });
    expect(textOf(prompt.body.blocks)).toContain("1. temperature=0.2\n2. temperature=1.8");
    const [confirm] = buttonsOf(prompt.body.blocks);
    await harness.click(buttonClick({ button: confirm!, responseUrl: fake.responseUrl(), ephemeral: true }));
    const answer = await seen(
      harness,
      fake.waitForCall("chat.update", (c) => c.ok && /Sweep s\w+ \(arithmetic\): 2 runs/.test(text(c))),
      "the sweep's answer",
    );
    const sweepTs = String(answer.body.ts);
    const sweepId = /Sweep (s\w+)/.exec(text(answer))![1]!;
    const runs = services.runs.listBySweep(sweepId);
    expect(runs).toHaveLength(2);

    // The sweep's message follows its runs (chat.update of that message), to both done with the best named.
    const last = await seen(
      harness,
      fake.waitForCall(
        "chat.update",
        (c) => c.ok && c.body.ts === sweepTs && textOf(c.body.blocks).includes("Finished: 2 completed, 0 failed."),
      ),
      "the sweep message's last state",
    );
    const board = textOf(last.body.blocks);
    for (const run of runs)
      expect(board).toMatch(new RegExp(`Run ${run.id}[^]*?temperature=(0\\.2|1\\.8) · ✅ done, reward -?\\d`));
    expect(board).toMatch(/Best: run \w+ \(temperature=(0\.2|1\.8)\), reward/);
    const comparison = await posted(
      harness,
      (c) => text(c).startsWith(`📊 Sweep ${sweepId} (arithmetic): finished, 2 runs compared`),
      "the comparison",
    );
    expect(comparison.body).toMatchObject({ channel: CHANNEL, thread_ts: sweepTs });
    const shown = textOf(comparison.body.blocks);
    // Each run's row: its temperature, its reward (a number), all 4 steps.
    for (const { id } of runs)
      expect(shown).toMatch(new RegExp(`${id}( ★)?\\s+(0\\.2|1\\.8)\\s+-?\\d+(\\.\\d+)?\\s+4/4`));
    expect(shown).toMatch(/Best: run \w+ \(temperature=(0\.2|1\.8)\), reward/);
    // Folded into the message: no run's started or completed notice is posted; one chart, the comparison's.
    const inThread = fake.calls.filter((c) => c.method === "chat.postMessage" && c.body.thread_ts === sweepTs);
    expect(inThread.map((c) => text(c).split("\n")[0])).toEqual([
      expect.stringMatching(new RegExp(`^📊 Sweep ${sweepId} \\(arithmetic\\): finished, 2 runs compared`)),
    ]);
    const uploads = fake.calls.filter((c) => c.method === "files.completeUploadExternal");
    expect(uploads.length).toBeLessThanOrEqual(1);
    // From the sweep's answer on (the command's own progress edits come before it), one edit every few seconds at most.
    const edits = fake.calls
      .filter((c) => c.method === "chat.update" && c.body.ts === sweepTs && c.at >= answer.at)
      .map((c) => c.at);
    for (let i = 1; i < edits.length; i++) expect(edits[i]! - edits[i - 1]!).toBeGreaterThanOrEqual(2900);
  });
});
