// A run of a trainer described by its manifest alone, through the fake Discord with the real discord.js: select,
// start, Confirm, the completed notice in the thread of the run's message, and its status.
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../../commands/index.ts";
import { TOY_ENV } from "../../helpers/toy-trainer.ts";
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

const start = harnessPerTest({ stopRuns: true });

describe("a manifest stack's run through Discord", () => {
  it("selects an entry, starts after Confirm, and answers the run's message with the completed notice", async () => {
    const harness = await start({ env: { ...TOY_ENV }, adapter: { commands: COMMANDS } });
    const { fake, services } = harness;
    const select = fake.slash("select", { name: "toy" });
    const first = await select.callback();
    const selected =
      bodyOf(first)["type"] === 5
        ? await fake.waitForCall((c) => isEditOriginal(select.token)(c) && titleOf(c) !== "", "the selection")
        : first;
    expect(titleOf(selected)).toBe("Selected toy");
    await services.env.editConfig(harness.channel, "iters", "8");
    await services.env.editConfig(harness.channel, "pause", "0.1");

    const prompt = await fake.slash("start").callback();
    expect(titleOf(prompt)).toBe("Start training toy?");
    const [confirm] = buttonsOf(prompt);
    const click = fake.click(messageIdOf(prompt), confirm!.custom_id);
    expect(bodyOf(await click.callback())["type"]).toBe(7);
    const answer = await fake.waitForCall(
      (c) => isFollowup(click.token)(c) && /\): running$/.test(titleOf(c)),
      "the running answer",
    );
    const runId = /Run (\S+) \(toy\): running/.exec(titleOf(answer))?.[1];
    if (!runId) throw new Error(`no run id in "${titleOf(answer)}"`);
    const runMessage = messageIdOf(answer);
    expect(await harness.anchored(runId)).toEqual({ runId, channel: harness.channel, id: runMessage });
    expect(services.runs.get(runId)).toMatchObject({ stack: "toy", thread: runMessage });

    const completed = await fake.waitForCall(
      (c) =>
        c.method === "POST" &&
        c.path === `/channels/${runMessage}/messages` &&
        c.status < 300 &&
        titleOf(c).startsWith(`✅ Run completed: ${runId} (toy)`),
      "the completed notice",
    );
    expect(embedsOf(completed)[0]?.["description"]).toMatch(
      /^Training complete after 8 steps; reward mean [01](\.\d+)?\./,
    );
    const status = await fake.slash("status", { run: runId }).callback();
    expect(fieldsOf(status)["Step"]).toBe("8 / 8");
    expect(fieldsOf(status)["Processes"]).toBe("trainer exited (0)");
  });
});
