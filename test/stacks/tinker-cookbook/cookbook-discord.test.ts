// A cookbook recipe run through the fake Discord: select, start, Confirm, and the completed notice answering the run's
// message with its steps, reward and final weights.
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../../commands/index.ts";
import { COOKBOOK_DEMO_ROOT } from "../../../src/config.ts";
import { COOKBOOK_ENV, RECIPE } from "../../helpers/cookbook.ts";
import {
  bodyOf,
  buttonsOf,
  embedsOf,
  fieldsOf,
  isEditOriginal,
  isFollowup,
  messageIdOf,
  harnessPerTest,
  titleOf,
} from "../../discord/harness.ts";

/** Discord shows the recipe's name with its underscore escaped, so markdown leaves it as it is. */
const SHOWN = RECIPE.replace("_", "\\_");
const SHOWN_PATTERN = SHOWN.replace(/[\\.]/g, "\\$&");

const start = harnessPerTest({ stopRuns: true });

describe("a cookbook run through Discord", () => {
  it("selects the recipe, starts after Confirm, and answers the run's message with the completed notice, step and reward", async () => {
    const harness = await start({
      // Empty means unset: the miniature's own recipes folder.
      env: { ...COOKBOOK_ENV, RL_TRAINING_ROOT: COOKBOOK_DEMO_ROOT, RL_ENVIRONMENTS_DIR: "" },
      adapter: { commands: COMMANDS },
    });
    const { fake, services } = harness;

    // On a loaded machine the bot may defer an answer (type 5) and edit it in once it has it.
    const answerOf = async (interaction: ReturnType<typeof fake.slash>, what: string) => {
      const first = await interaction.callback();
      return bodyOf(first)["type"] === 5
        ? await fake.waitForCall((c) => isEditOriginal(interaction.token)(c) && titleOf(c) !== "", what)
        : first;
    };
    const selected = await answerOf(fake.slash("select", { name: RECIPE }), "the selection");
    expect(titleOf(selected)).toBe(`Selected ${SHOWN}`);
    await services.env.editConfig(harness.channel, "demo_n_batches", "20");
    await services.env.editConfig(harness.channel, "demo_step_seconds", "0.15");

    const prompt = await answerOf(fake.slash("start"), "the start's prompt");
    expect(titleOf(prompt)).toBe(`Start training ${SHOWN}?`);
    const [confirm] = buttonsOf(prompt);
    expect(confirm?.label).toBe("Confirm");
    const click = fake.click(messageIdOf(prompt), confirm!.custom_id);
    expect(bodyOf(await click.callback())["type"]).toBe(7);
    const answer = await fake.waitForCall(
      (c) => isFollowup(click.token)(c) && /\): running$/.test(titleOf(c)),
      "the running answer",
    );
    const runId = new RegExp(`Run (\\S+) \\(${SHOWN_PATTERN}\\): running`).exec(titleOf(answer))?.[1];
    if (!runId) throw new Error(`no run id in "${titleOf(answer)}"`);
    const runMessage = messageIdOf(answer);
    expect(await harness.anchored(runId)).toEqual({ runId, channel: harness.channel, id: runMessage });
    expect(services.runs.get(runId)).toMatchObject({ stack: "tinker-cookbook", thread: runMessage });

    const completed = await fake.waitForCall(
      (c) =>
        c.method === "POST" &&
        // Into the thread started from the run's message (a thread has its message's id).
        c.path === `/channels/${runMessage}/messages` &&
        c.status < 300 &&
        titleOf(c).startsWith(`✅ Run completed: ${runId} (${SHOWN})`),
      "the completed notice",
    );
    // Discord escapes the scheme's colon (inert text: no link is made of it).
    expect(embedsOf(completed)[0]?.["description"]).toMatch(
      /^Training complete after 20 steps; reward mean 0\.\d+\. Final weights: tinker\\:\/\/\S+\/sampler\\_weights\/final Final checkpoint: final \(step 20\) tinker\\:\/\/\S+\/weights\/final$/,
    );
    expect(fieldsOf(completed)["Final reward"]).toMatch(/^0\.\d+$/);
    expect(services.runs.get(runId)?.status).toBe("completed");

    const status = await fake.slash("status", { run: runId }).callback();
    expect(titleOf(status)).toBe(`✅ Run ${runId} (${SHOWN}): completed`);
    expect(fieldsOf(status)["Step"]).toBe("20 / 20");
    expect(fieldsOf(status)["Processes"]).toBe("trainer exited (0)");
  });
});
