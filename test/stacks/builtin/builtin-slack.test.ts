// Built-in stacks through the fake Slack with the real Bolt, on their miniatures: verl refused while a ??? field is
// unset, then started, its completed notice in the run's thread with its final checkpoint, its checkpoints and samples,
// and a fork; TRL GRPO started, stopped and resumed as the same run to its end, and saying it keeps no samples.
import { describe, expect, it } from "vitest";
import type { RecordedCall } from "../../fakes/slack-api.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { ALICE, TEAM, CHANNEL, buttonClick } from "../../slack/slack-payloads.ts";
import { buttonsOf, startSlackHarness, type SlackHarness } from "../../slack/slack-harness.ts";
import { closeDemoSlackAfterEach } from "../../slack/slack-demo.ts";
import { answered, answeredAt, posted, seen, text, type, typeAs } from "../../slack/slack-waits.ts";

const keep = closeDemoSlackAfterEach();

/** The bot with Slack on RL_STACK=`stack`'s miniature, Alice its operator; the trainers step every `stepSeconds`. */
async function slackOn(stack: string, stepSeconds: string): Promise<SlackHarness> {
  // The trainer's environment is the bot's: the miniature's pace.
  process.env["RL_DEMO_STEP_SECONDS"] = stepSeconds;
  return keep(
    await startSlackHarness({
      env: {
        RL_STACK: stack,
        // Empty means unset: the stack's miniature in examples/.
        RL_TRAINING_ROOT: "",
        RL_ENVIRONMENTS_DIR: "",
        RL_STOP_GRACE_SECONDS: "3",
        RL_READY_TIMEOUT_SECONDS: "30",
        RL_DEFAULT_ROLE: "read",
        RL_OPERATORS: `slack:${ALICE.id}`,
        WANDB_BASE_URL: "http://127.0.0.1:9",
      },
    }),
  );
}

/** Types `/rl words`, which asks first, and clicks Confirm on its private prompt: the prompt's text. */
async function confirmTyped(harness: SlackHarness, words: string): Promise<string> {
  const url = await type(harness, words);
  const prompt = await seen(harness, harness.fake.waitForResponse(answeredAt(url)), `the prompt of ${words}`);
  const [confirm] = buttonsOf(prompt.body.blocks);
  if (confirm?.text.text !== "Confirm") throw new Error(`${words} did not ask: ${String(prompt.body.text)}`);
  await harness.click(buttonClick({ button: confirm, responseUrl: harness.fake.responseUrl(), ephemeral: true }));
  return String(prompt.body.text);
}

/** The answer saying a new run of `entry` is running (not one of `known`): its id and the message that is its thread. */
async function runningAnswer(harness: SlackHarness, entry: string, known: string[] = []) {
  const re = new RegExp(`Run (\\S+) \\(${entry}\\): running\\n`);
  const isNew = (c: RecordedCall) => c.ok && !known.includes(re.exec(text(c))?.[1] ?? "");
  const answer = await seen(
    harness,
    harness.fake.waitForCall("chat.update", (c) => re.test(text(c)) && isNew(c)),
    "the running answer",
  );
  return { id: re.exec(text(answer))![1]!, ts: String(answer.body.ts) };
}

/** The completed notice of run `id`, posted in the run's thread. */
async function completedIn(harness: SlackHarness, id: string, entry: string): Promise<RecordedCall> {
  const notice = await posted(
    harness,
    (c) => text(c).startsWith(`✅ Run completed: ${id} (${entry})`),
    `the completed notice of ${id}`,
  );
  expect(notice.body).toMatchObject({ channel: CHANNEL, thread_ts: harness.services.runs.get(id)!.thread });
  return notice;
}

describe("built-in stacks through Slack", () => {
  it("verl: refused while ??? is unset, then a run, its checkpoints and samples, and a fork", async () => {
    const harness = await slackOn("verl", "0");
    const { services } = harness;
    await type(harness, "select ppo_trainer");
    await answered(harness, (c) => text(c).startsWith("Selected ppo_trainer"), "the selection");

    const refused = await typeAs(harness, ALICE, "start", true);
    expect(refused.all).toContain("field actor_rollout_ref.rollout.name has no value (???");
    expect(refused.all).toContain("Type /rl set actor_rollout_ref.rollout.name");
    const channel = { platform: "slack", workspace: TEAM, channel: CHANNEL };
    for (const [key, value] of [
      ["actor_rollout_ref.rollout.name", "vllm"],
      ["algorithm.adv_estimator", "grpo"],
      ["trainer.val_before_train", "false"],
      ["trainer.total_training_steps", "6"],
      ["trainer.save_freq", "2"],
    ])
      await services.env.editConfig(channel, key!, value);

    expect(await confirmTyped(harness, "start")).toContain("Start training ppo_trainer?");
    const parent = await runningAnswer(harness, "ppo_trainer");
    expect(services.runs.get(parent.id)!.thread).toBe(parent.ts);
    const done = await completedIn(harness, parent.id, "ppo_trainer");
    expect(text(done)).toMatch(
      /Training complete after 6 steps; reward mean [01](\.\d+)?\. Final weights: \S+\/checkpoints\/global_step_6/,
    );
    const checkpoints = await typeAs(harness, ALICE, `checkpoints ${parent.id}`);
    for (const step of [2, 4, 6]) expect(checkpoints.all).toContain(`global_step_${step}`);
    const samples = await typeAs(harness, ALICE, `samples ${parent.id} --step 3 --n 2`);
    expect(samples.all).toContain("samples of step 3");
    expect(samples.all).toContain("What is");

    expect(await confirmTyped(harness, `fork ${parent.id} global_step_4 trainer.total_training_steps=8`)).toContain(
      "global_step_4",
    );
    const child = await runningAnswer(harness, "ppo_trainer", [parent.id]);
    const forked = await completedIn(harness, child.id, "ppo_trainer");
    expect(text(forked)).toContain("Training complete after 8 steps");
    expect(services.runs.get(child.id)).toMatchObject({ parentId: parent.id, forkStep: 4, stack: "verl" });
  });

  it("TRL GRPO: a run stopped and resumed as the same run to its end; no samples, said by name", async () => {
    const harness = await slackOn("trl-grpo", "0.15");
    const { services } = harness;
    await type(harness, "select toy_arithmetic_small_groups");
    await answered(harness, (c) => text(c).startsWith("Selected toy_arithmetic_small_groups"), "the selection");
    const channel = { platform: "slack", workspace: TEAM, channel: CHANNEL };
    await services.env.editConfig(channel, "max_steps", "16");
    await services.env.editConfig(channel, "save_steps", "3");

    await confirmTyped(harness, "start");
    const run = await runningAnswer(harness, "toy_arithmetic_small_groups");
    await waitFor(
      async () => (await services.manager.checkpoints(services.runs.get(run.id)!)).length > 0,
      "a first checkpoint",
    );
    await confirmTyped(harness, `stop ${run.id}`);
    await posted(
      harness,
      (c) => text(c).startsWith(`⏹ Run ${run.id} (toy_arithmetic_small_groups): stopped`),
      "the stopped answer",
    );
    const saved = (await services.manager.checkpoints(services.runs.get(run.id)!)).at(-1)!;
    expect(await confirmTyped(harness, `resume ${run.id}`)).toContain(`from checkpoint ${saved.name}?`);
    const done = await completedIn(harness, run.id, "toy_arithmetic_small_groups");
    expect(text(done)).toMatch(/Training complete after 16 steps; .*Final weights: \S+\/output\/checkpoint-16/);
    const resumed = services.runs.get(run.id)!;
    expect(resumed).toMatchObject({ status: "completed", attempt: 1, resumedStep: saved.step });
    const progress = await services.manager.stackOf(resumed).readProgress(resumed);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));

    const samples = await typeAs(harness, ALICE, `samples ${run.id}`, true);
    expect(samples.all).toContain("The trl-grpo stack keeps no samples the bot can read");
  });
});
