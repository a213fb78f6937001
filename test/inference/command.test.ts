// /rl test through the dispatcher: real services, the demo's arithmetic environment, a fake endpoint on 127.0.0.1.
import { afterEach, describe, expect, it } from "vitest";
import testCommand from "../../commands/test.ts";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { createInferenceTestsRepo } from "../../db/inference-tests.ts";
import type { InferenceTestResult } from "../../src/inference/types.ts";
import { answer, dispatchConfirmed } from "../helpers/confirm.ts";
import { CHANNEL, KEY, OTHER, inferenceHarness, type Harness } from "./harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function context(harness: Harness, channel = CHANNEL, progress: string[] = []): CommandContext {
  return {
    channel,
    user: { id: "U1" },
    via: "slash",
    services: harness.services,
    progress: async (text) => {
      progress.push(text);
    },
  };
}

/** /rl test and a click on its prompt's Confirm, as the same person. */
const run = (harness: Harness, text: string, ctx = context(harness)) =>
  dispatchConfirmed({ text }, ctx, { commands: [testCommand] });

describe("/rl test", () => {
  it("asks the person to confirm first, showing models and completions, and runs nothing until then", async () => {
    h = await inferenceHarness();
    const out = await dispatch({ text: "/rl test --steps 2 --group-size 4 --models t/correct,t/wrong" }, context(h), {
      commands: [testCommand],
    });
    expect(out.needsConfirmation).toBe(true);
    expect(out.reply.fields).toEqual(
      expect.arrayContaining([{ label: "Completions", value: "2 steps × 4 per model = 16 in all" }]),
    );
    expect(out.reply.buttons?.[0]).toMatchObject({ label: "Confirm", kind: "confirm" });
    expect(h.fake.requests).toEqual([]);
    expect(h.services.inferenceTests.listByChannel(CHANNEL, 5)).toEqual([]);
    // The Confirm button's prompt holds the same request.
    const confirmed = await answer(out.reply, context(h), "confirm", { commands: [testCommand] });
    expect((confirmed.reply.data as InferenceTestResult).models.map((m) => m.model)).toEqual(["t/correct", "t/wrong"]);
    expect((confirmed.reply.data as InferenceTestResult).test_config).toMatchObject({ steps: 2, group_size: 4 });
  });

  it("scores correct, incorrect and malformed completions per model, reports progress, and stores the result with the channel", async () => {
    h = await inferenceHarness();
    const progress: string[] = [];
    const out = await run(
      h,
      "/rl test --steps 2 --group-size 4 --models t/correct,t/wrong,t/malformed",
      context(h, CHANNEL, progress),
    );
    expect(out.ok).toBe(true);
    const result = out.reply.data as InferenceTestResult;
    const by = Object.fromEntries(result.models.map((m) => [m.model, m]));
    expect(by["t/correct"]).toMatchObject({
      outcome: "ok",
      steps_tested: 2,
      completions: 8,
      correct: 8,
      accuracy: 1,
      steps_with_correct: 2,
    });
    expect(by["t/wrong"]).toMatchObject({
      outcome: "ok",
      steps_tested: 2,
      completions: 8,
      correct: 0,
      accuracy: 0,
      steps_with_correct: 0,
    });
    expect(by["t/malformed"]).toMatchObject({
      outcome: "ok",
      steps_tested: 2,
      completions: 8,
      correct: 0,
      malformed_lines: 0,
    });
    expect(result.models.map((m) => m.error)).toEqual([undefined, undefined, undefined]);
    expect(result.summary).toMatchObject({
      models_tested: 3,
      models_succeeded: 3,
      best_model: "t/correct",
      mean_accuracy: 0.333,
      environment_working: true,
      crashed: [],
    });
    expect(result.test_config).toMatchObject({
      steps: 2,
      group_size: 4,
      rollouts_per_model: 8,
      total_rollouts: 24,
      correct_threshold: 0.5,
    });
    expect(out.reply.title).toBe("Inference test: arithmetic works");

    // One message at the start, then one edit as each model finishes, with the counts so far.
    expect(progress).toHaveLength(4);
    expect(progress[1]).toMatch(/1\/3 models done/);
    expect(progress[3]).toMatch(/3\/3 models done/);
    expect(progress[3]).toContain("t/correct: 8/8 correct (100%), 2/2 steps with a correct answer");

    // The key reached the endpoint as a bearer token, and is in no stored command line.
    const mine = h.fake.requests.filter((r) => r.model.startsWith("t/"));
    expect(mine.length).toBeGreaterThanOrEqual(6);
    expect(new Set(mine.map((r) => r.authorization))).toEqual(new Set([`Bearer ${KEY}`]));
    expect(JSON.stringify(result)).not.toContain(KEY);

    const tests = createInferenceTestsRepo(h.services.db);
    const rows = tests.listByChannel(CHANNEL, 10);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: result.test_id,
      environment: "arithmetic",
      createdBy: "U1",
      status: "completed",
      channel: CHANNEL,
    });
    expect(rows[0]?.finishedAt).toBeTypeOf("number");
    expect(rows[0]?.result).toEqual(result);
    expect(tests.listByChannel(OTHER, 10)).toEqual([]);
    expect(h.services.audit.latest(1)[0]).toMatchObject({ command: "test", outcome: "ok" });
  });

  it("keeps each channel's results apart", async () => {
    h = await inferenceHarness();
    await h.services.env.selectEnvironment(OTHER, "parity");
    const a = await run(h, "/rl test --steps 1 --group-size 2 --models t/correct");
    const b = await run(h, "/rl test --steps 1 --group-size 2 --models t/wrong", context(h, OTHER));
    const tests = createInferenceTestsRepo(h.services.db);
    expect(tests.listByChannel(CHANNEL, 10).map((r) => [r.id, r.environment])).toEqual([
      [(a.reply.data as InferenceTestResult).test_id, "arithmetic"],
    ]);
    expect(tests.listByChannel(OTHER, 10).map((r) => [r.id, r.environment])).toEqual([
      [(b.reply.data as InferenceTestResult).test_id, "parity"],
    ]);
    expect((b.reply.data as InferenceTestResult).summary.environment_working).toBe(false);
  });

  it("refuses with MISSING_KEYS (the name only) when no key is set and the endpoint is remote; starts nothing", async () => {
    h = await inferenceHarness({ OPENROUTER_API_KEY: "", RL_TEST_BASE_URL: "https://openrouter.ai/api/v1" });
    const out = await run(h, "/rl test --models t/correct");
    expect(out.ok).toBe(false);
    expect(out.reply.error).toMatchObject({ code: "MISSING_KEYS", details: { missing: ["OPENROUTER_API_KEY"] } });
    expect(h.fake.requests).toEqual([]);
    expect(createInferenceTestsRepo(h.services.db).listByChannel(CHANNEL, 10)).toEqual([]);
  });

  it("runs against a local --base-url without any key, and sends none", async () => {
    h = await inferenceHarness({ OPENROUTER_API_KEY: "", RL_TEST_BASE_URL: "https://openrouter.ai/api/v1" });
    const out = await run(h, `/rl test --steps 1 --group-size 2 --models t/correct --base-url ${h.fake.baseUrl}`);
    expect(out.ok).toBe(true);
    expect((out.reply.data as InferenceTestResult).models[0]).toMatchObject({ outcome: "ok", correct: 2 });
    expect((out.reply.data as InferenceTestResult).api_key_sent).toBe(false);
    // The demo environment's own placeholder key, not anything of the bot's.
    expect(h.fake.requests.map((r) => r.authorization)).toEqual(["Bearer x"]);
  });

  it("will not send the key to another host named with --base-url", async () => {
    h = await inferenceHarness({ RL_TEST_BASE_URL: "https://openrouter.ai/api/v1" });
    const out = await run(h, "/rl test --models t/correct --base-url https://collector.example/v1");
    expect(out.reply.error?.code).toBe("INVALID_VALUE");
    expect(out.reply.text).not.toContain(KEY);
  });

  it("asks for an environment first", async () => {
    h = await inferenceHarness();
    const out = await run(h, "/rl test", context(h, OTHER));
    expect(out.reply.error?.code).toBe("NO_ENVIRONMENT");
  });
});
