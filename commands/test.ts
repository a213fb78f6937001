// /rl test: try the channel's environment in process mode on a few models, and report whether it works.
import { z } from "zod";
import { describeModel, verdictText } from "../src/inference/describe-result.ts";
import { MODEL_ID, planInferenceTest } from "../src/inference/plan-inference-test.ts";
import { runInferenceTest } from "../src/inference/run-inference-test.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "test",
  summary: "Test the environment on a few models (no training)",
  description:
    "Check that this channel's selected environment works before training. Runs the environment's Atropos process mode (no trainer, nothing trained) once per model against an OpenAI-compatible endpoint: by default OpenRouter with OPENROUTER_API_KEY, the models in RL_TEST_MODELS (qwen/qwen3-8b, zhipu-ai/glm-4-flash, minimax/minimax-m1), 3 steps of 16 completions each, scored by the environment's own verifier. Returns per model: outcome (ok, crashed, no_output, timeout), steps tested, completions, correct (score at least RL_TEST_CORRECT_THRESHOLD, default 0.5), accuracy, steps with at least one correct, and for failures the error and the end of the process's stderr; plus a summary: best model, mean accuracy, and environment_working (some model got at least one completion right and none crashed). Takes minutes and spends API credits. The result is stored for this channel.",
  toolName: "rl_test_inference",
  args: z.object({
    steps: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe("Steps (groups of completions) per model; default RL_TEST_STEPS (3)"),
    group_size: z
      .number()
      .int()
      .min(1)
      .max(64)
      .optional()
      .describe("Completions per step; default RL_TEST_GROUP_SIZE (16)"),
    models: z
      .array(z.string().regex(MODEL_ID, "expected a model id such as qwen/qwen3-8b"))
      .min(1)
      .max(10)
      .optional()
      .describe("Model ids to test; default RL_TEST_MODELS"),
    base_url: z
      .string()
      .url()
      .optional()
      .describe(
        "OpenAI-compatible endpoint: RL_TEST_BASE_URL's host, or a local one (127.0.0.1/localhost, no key needed)",
      ),
  }),
  permission: "operate",
  uses: ["config", "env", "inferenceTests", "log", "now", "redact"],
  slow: true,
  // It spends API credits: the person confirms, seeing the models and the number of completions.
  confirm: true,
  mutates: true,
  examples: [
    "/rl test",
    "/rl test --steps 2 --group-size 4 --models qwen/qwen3-8b",
    "/rl test --base-url http://127.0.0.1:8001/v1 --models demo-policy",
  ],
  async preview(args, ctx) {
    const { services } = ctx;
    const environment = await services.env.startableEnvironment(ctx.channel);
    const plan = planInferenceTest(
      { steps: args.steps, groupSize: args.group_size, models: args.models, baseUrl: args.base_url },
      services.config.inferenceTest,
      services.config.keys.openrouter,
    );
    return {
      title: `Test ${environment.name} on ${plan.models.length} model(s)?`,
      text: plan.apiKey ? "This spends API credits on the endpoint below." : "A local endpoint: no API key is sent.",
      fields: [
        { label: "Models", value: plan.models.join(", ") },
        {
          label: "Completions",
          value: `${plan.steps} steps × ${plan.groupSize} per model = ${plan.steps * plan.groupSize * plan.models.length} in all`,
        },
        { label: "Endpoint", value: plan.baseUrl },
      ],
    };
  },
  async run(args, ctx) {
    const { services } = ctx;
    const environment = await services.env.startableEnvironment(ctx.channel);
    const plan = planInferenceTest(
      { steps: args.steps, groupSize: args.group_size, models: args.models, baseUrl: args.base_url },
      services.config.inferenceTest,
      services.config.keys.openrouter,
    );
    const result = await runInferenceTest(
      {
        config: services.config,
        tests: services.inferenceTests,
        log: services.log,
        redact: services.redact,
        now: services.now,
      },
      { channel: ctx.channel, userId: ctx.user.id, environment, plan, progress: ctx.progress },
    );
    const failed = result.models.filter((m) => m.stderr_tail);
    return {
      title: `Inference test: ${result.environment} ${result.summary.environment_working ? "works" : "does not work yet"}`,
      text: verdictText(result),
      fields: [
        ...result.models.map((m) => ({ label: m.model, value: describeModel(m) })),
        {
          label: "Per model",
          value: `${result.test_config.steps} steps × ${result.test_config.group_size} completions`,
        },
        { label: "Endpoint", value: result.endpoint },
        { label: "Test", value: result.test_id },
      ],
      blocks: failed.length
        ? failed.map((m) => ({
            kind: "code" as const,
            title: `${m.model}: end of stderr`,
            content: m.stderr_tail ?? "",
          }))
        : undefined,
      data: result,
    };
  },
});
