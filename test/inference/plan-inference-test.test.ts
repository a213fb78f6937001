// Planning a test: defaults from the settings, MISSING_KEYS without a key, and the key only ever bound for RL_TEST_BASE_URL.
import { describe, expect, it } from "vitest";
import { planInferenceTest } from "../../src/inference/plan-inference-test.ts";
import { buildProcessArgv, buildProcessEnv } from "../../src/inference/process-mode-command.ts";
import { testConfig } from "../helpers/test-services.ts";

const settings = testConfig().inferenceTest;
const KEY = "sk-or-v1-plan-test-key";

function refusal(fn: () => unknown): { code?: string; message?: string; details?: unknown } {
  try {
    fn();
  } catch (err) {
    return err as { code?: string };
  }
  throw new Error("expected a refusal");
}

describe("planInferenceTest", () => {
  it("uses the seed's defaults: three models, 3 steps x 16 completions on OpenRouter, threshold 0.5", () => {
    const plan = planInferenceTest({}, settings, KEY);
    expect(plan).toMatchObject({
      models: ["qwen/qwen3-8b", "zhipu-ai/glm-4-flash", "minimax/minimax-m1"],
      steps: 3,
      groupSize: 16,
      baseUrl: "https://openrouter.ai/api/v1",
      apiKey: KEY,
      timeoutMs: 600_000,
      concurrency: 3,
      correctThreshold: 0.5,
    });
  });

  it("refuses with MISSING_KEYS, naming the variable and never a value, when no key is set", () => {
    const err = refusal(() => planInferenceTest({}, settings, undefined));
    expect(err.code).toBe("MISSING_KEYS");
    expect(err.message).toMatch(/OPENROUTER_API_KEY/);
    expect(err.details).toEqual({ missing: ["OPENROUTER_API_KEY"] });
  });

  it("needs no key for a local endpoint, and sends it none", () => {
    for (const url of ["http://127.0.0.1:9/v1", "http://localhost:9/v1/", "http://[::1]:9/v1"]) {
      expect(planInferenceTest({ baseUrl: url }, settings, undefined).apiKey).toBeUndefined();
      expect(planInferenceTest({ baseUrl: url }, settings, KEY).apiKey).toBeUndefined();
    }
    expect(planInferenceTest({ baseUrl: "http://localhost:9/v1/" }, settings, undefined).baseUrl).toBe(
      "http://localhost:9/v1",
    );
  });

  it("never sends the key to another remote host given in chat", () => {
    const err = refusal(() => planInferenceTest({ baseUrl: "https://collector.example/v1" }, settings, KEY));
    expect(err.code).toBe("INVALID_VALUE");
    expect(err.message).not.toContain(KEY);
    expect(planInferenceTest({ baseUrl: "https://openrouter.ai/api/v1" }, settings, KEY).apiKey).toBe(KEY);
  });

  it("refuses model ids that could read as flags", () => {
    expect(refusal(() => planInferenceTest({ models: ["--env.total_steps"] }, settings, KEY)).code).toBe(
      "INVALID_VALUE",
    );
    expect(planInferenceTest({ models: ["a/b", "a/b", " c "] }, settings, KEY).models).toEqual(["a/b", "c"]);
  });
});

describe("the child's command and environment", () => {
  it("put the key in OPENAI_API_KEY and never on the command line; drop the bot's own secrets", () => {
    const options = {
      python: "python3",
      envFile: "/e/env.py",
      steps: 3,
      groupSize: 16,
      outputFile: "/d/01-m.jsonl",
      baseUrl: "https://openrouter.ai/api/v1",
      model: "m",
    };
    const argv = buildProcessArgv(options);
    expect(argv.args).toEqual([
      "/e/env.py",
      "process",
      "--env.total_steps",
      "3",
      "--env.group_size",
      "16",
      "--env.use_wandb",
      "false",
      "--env.data_path_to_save_groups",
      "/d/01-m.jsonl",
      "--openai.base_url",
      "https://openrouter.ai/api/v1",
      "--openai.model_name",
      "m",
    ]);
    // With a key to send: a config whose api_key null makes the OpenAI client read OPENAI_API_KEY.
    const withConfig = buildProcessArgv({ ...options, configFile: "/d/01-m.yaml" });
    expect(withConfig.args.slice(-2)).toEqual(["--config", "/d/01-m.yaml"]);
    const env = buildProcessEnv({ PATH: "/bin", OPENROUTER_API_KEY: KEY, SLACK_BOT_TOKEN: "xoxb-1" }, "/root", KEY);
    expect(env.OPENAI_API_KEY).toBe(KEY);
    expect(env.OPENROUTER_API_KEY).toBeUndefined();
    expect(env.SLACK_BOT_TOKEN).toBeUndefined();
    expect(buildProcessEnv({ OPENAI_API_KEY: "sk-bot-own" }, "/root", undefined).OPENAI_API_KEY).toBeUndefined();
  });
});
