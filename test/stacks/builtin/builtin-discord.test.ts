// prime-rl built in, through the fake Discord with the real discord.js, on its miniature: a run started after Confirm,
// stopped (prime-rl's SIGTERM handler) and resumed as the same run with --resume.step, its completed notice in the
// thread of the run's message, its samples, and a fork from one of its checkpoints.
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../../commands/index.ts";
import type { RecordedCall } from "../../fakes/discord-gateway.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import {
  answerOf,
  bodyOf,
  buttonsOf,
  embedsOf,
  fieldsOf,
  harnessPerTest,
  isFollowup,
  messageIdOf,
  titleOf,
  type Harness,
} from "../../discord/harness.ts";

const start = harnessPerTest({ stopRuns: true });

/** Runs a slash command that asks first and clicks its Confirm: the prompt and the answer that follows the click. */
async function confirmSlash(
  harness: Harness,
  name: string,
  options: Record<string, string>,
  answer: RegExp,
): Promise<{ prompt: RecordedCall; answer: RecordedCall }> {
  const { fake } = harness;
  const prompt = await answerOf(fake, fake.slash(name, options));
  const [confirm] = buttonsOf(prompt);
  if (confirm?.label !== "Confirm") throw new Error(`/rl ${name} did not ask: ${titleOf(prompt)}`);
  const click = fake.click(messageIdOf(prompt), confirm.custom_id);
  expect(bodyOf(await click.callback())["type"]).toBe(7);
  const followup = await fake.waitForCall(
    (c) => isFollowup(click.token)(c) && answer.test(titleOf(c)),
    `the answer to /rl ${name}`,
  );
  return { prompt, answer: followup };
}

const completedIn = (harness: Harness, thread: string, id: string) =>
  harness.fake.waitForCall(
    (c) =>
      c.method === "POST" &&
      c.path === `/channels/${thread}/messages` &&
      c.status < 300 &&
      titleOf(c).startsWith(`✅ Run completed: ${id} (toy)`),
    `the completed notice of ${id}`,
  );

describe("a built-in stack through Discord", () => {
  it("prime-rl: start, stop, resume to the end as one run, samples, and a fork from a checkpoint", async () => {
    process.env["RL_DEMO_STEP_SECONDS"] = "0.15";
    const harness = await start({
      env: {
        RL_STACK: "prime-rl",
        // Empty means unset: the miniature in examples/prime-rl.
        RL_TRAINING_ROOT: "",
        RL_ENVIRONMENTS_DIR: "",
        RL_STOP_GRACE_SECONDS: "3",
        RL_READY_TIMEOUT_SECONDS: "30",
        WANDB_BASE_URL: "http://127.0.0.1:9",
      },
      adapter: { commands: COMMANDS },
    });
    const { fake, services } = harness;
    expect(titleOf(await answerOf(fake, fake.slash("select", { name: "toy" })))).toBe("Selected toy");
    await services.env.editConfig(harness.channel, "max_steps", "16");
    await services.env.editConfig(harness.channel, "ckpt.interval", "3");

    const started = await confirmSlash(harness, "start", {}, /\(toy\): running$/);
    const id = /Run (\S+) \(toy\)/.exec(titleOf(started.answer))![1]!;
    const thread = messageIdOf(started.answer);
    expect(await harness.anchored(id)).toMatchObject({ runId: id, id: thread });
    await waitFor(async () => (await services.manager.checkpoints(services.runs.get(id)!)).length > 0, "a checkpoint");
    await confirmSlash(harness, "stop", { run: id }, new RegExp(`^⏹ Run ${id} \\(toy\\): stopped$`));
    const saved = (await services.manager.checkpoints(services.runs.get(id)!)).at(-1)!;
    const resumed = await confirmSlash(harness, "resume", { run: id }, new RegExp(`Run ${id} \\(toy\\)`));
    expect(titleOf(resumed.prompt)).toBe(`Resume run ${id} (toy) from checkpoint ${saved.name.replace("_", "\\_")}?`);
    // The resumed run's answer is its message from then on: the rest of its notices go to that message's thread.
    const resumedThread = messageIdOf(resumed.answer);
    expect(await harness.anchored(id)).toMatchObject({ id: thread });
    const done = await completedIn(harness, resumedThread, id);
    expect(services.runs.get(id)!.thread).toBe(resumedThread);
    expect(embedsOf(done)[0]?.["description"]).toMatch(/^Training complete after 16 steps; reward mean [01](\.\d+)?\./);
    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ status: "completed", attempt: 1, resumedStep: saved.step });
    const progress = await services.manager.stackOf(run).readProgress(run);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(fieldsOf(await answerOf(fake, fake.slash("status", { run: id })))["Step"]).toBe("16 / 16");

    const samples = await answerOf(fake, fake.slash("samples", { run: id, step: 5 }));
    expect(titleOf(samples)).toContain("samples of step 5");
    expect(JSON.stringify(embedsOf(samples))).toContain("What is");

    const forked = await confirmSlash(
      harness,
      "fork",
      { run: id, rest: `step_${saved.step} max_steps=${saved.step + 3}` },
      /\(toy\): running$/,
    );
    const child = /Run (\S+) \(toy\)/.exec(titleOf(forked.answer))![1]!;
    await completedIn(harness, messageIdOf(forked.answer), child);
    expect(services.runs.get(child)).toMatchObject({ parentId: id, forkStep: saved.step, stack: "prime-rl" });
  });
});
