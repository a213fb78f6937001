// The children themselves: time limits, crashes, stale output files, the concurrency limit, and where the key travels.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runInferenceTest } from "../../src/inference/run-inference-test.ts";
import { FAKE_ENVS, KEY, dataFolder, inferenceHarness, isGroupAlive, type Harness } from "./harness.ts";
import { waitFor } from "../helpers/wait-for.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const perfect = (n: number) =>
  JSON.stringify({ tokens: [[1]], masks: [[1]], scores: Array.from({ length: n }, () => 1), messages: null });

describe("inference test children", () => {
  it("kills a model that never answers at its time limit, with its whole process group", async () => {
    h = await inferenceHarness();
    const plan = h.plan({ models: ["t/hang"] }, { timeoutMs: 1_500 });
    const result = await runInferenceTest(h.deps({ killGraceMs: 500 }), await h.input(plan));
    const [m] = result.models;
    expect(m).toMatchObject({
      model: "t/hang",
      outcome: "timeout",
      completions: 0,
      error: expect.stringMatching(/timed out after \d+ s; its process group was killed/),
    });
    expect(result.summary).toMatchObject({ timed_out: ["t/hang"], environment_working: false, crashed: [] });
    const pid = h.spawned[0]!.pid;
    expect(isGroupAlive(pid)).toBe(false);
  });

  it("reports a crashing environment with its exit code and the end of its stderr, secrets redacted", async () => {
    h = await inferenceHarness({ RL_ENVIRONMENTS_DIR: FAKE_ENVS }, "crash");
    const result = await runInferenceTest(h.deps(), await h.input(h.plan({ models: ["t/correct"] })));
    const [m] = result.models;
    expect(m).toMatchObject({ outcome: "crashed", exit_code: 1, error: "exited with code 1", completions: 0 });
    expect(m?.stderr_tail).toMatch(/Traceback/);
    expect(m?.stderr_tail).toMatch(/RuntimeError: dataset missing: crashing on purpose/);
    // The environment printed the key it was given; the bot never repeats it.
    expect(m?.stderr_tail).toContain("using key [redacted]");
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(result.summary).toMatchObject({ environment_working: false, crashed: ["t/correct"] });
  });

  it("never reads a stale output file in its place: follows Atropos's renamed file", async () => {
    h = await inferenceHarness();
    const id = "stale-test-1";
    const folder = dataFolder(h.services, id);
    mkdirSync(folder, { recursive: true });
    // An earlier test's perfect file, exactly where this test's first model will be told to write.
    const stale = path.join(folder, "01-t_wrong.jsonl");
    writeFileSync(stale, `${perfect(4)}\n${perfect(4)}\n`);
    const yesterday = new Date(Date.now() - 86_400_000);
    utimesSync(stale, yesterday, yesterday);

    const result = await runInferenceTest(h.deps({ newId: () => id }), await h.input(h.plan({ models: ["t/wrong"] })));
    const [m] = result.models;
    expect(m).toMatchObject({
      outcome: "ok",
      steps_tested: 2,
      completions: 8,
      correct: 0,
      output_file: path.join(folder, "01-t_wrong_1.jsonl"),
    });
    expect(result.summary.environment_working).toBe(false);
  });

  it("refuses an older file when the environment writes nothing, and says when there is no file at all", async () => {
    h = await inferenceHarness({ RL_ENVIRONMENTS_DIR: FAKE_ENVS }, "silent");
    const id = "stale-test-2";
    const folder = dataFolder(h.services, id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "01-t_correct.jsonl"), `${perfect(4)}\n`);
    const result = await runInferenceTest(
      h.deps({ newId: () => id }),
      await h.input(h.plan({ models: ["t/correct", "t/correct-too"] })),
    );
    expect(result.models[0]).toMatchObject({
      outcome: "no_output",
      correct: 0,
      completions: 0,
      error: expect.stringMatching(/before this test/),
    });
    expect(result.models[0]?.output_file).toBeUndefined();
    expect(result.models[1]).toMatchObject({
      outcome: "no_output",
      error: expect.stringMatching(/wrote no output file/),
    });
    expect(result.summary).toMatchObject({ environment_working: false, crashed: ["t/correct", "t/correct-too"] });
  });

  it("runs at most RL_TEST_CONCURRENCY models at once", async () => {
    h = await inferenceHarness({ RL_TEST_CONCURRENCY: "2" });
    const harness = h;
    const plan = harness.plan({ models: ["t/gate-a", "t/gate-b", "t/gate-c"] });
    expect(plan.concurrency).toBe(2);
    const running = runInferenceTest(harness.deps(), await harness.input(plan));
    // The fake holds gate* requests: two models are waiting on it now, and none has finished.
    await waitFor(() => harness.fake.modelsInFlight().length === 2, "two models in flight");
    expect(harness.spawned).toHaveLength(2);
    harness.fake.release();
    const result = await running;
    expect(harness.spawned).toHaveLength(3);
    expect(harness.fake.maxModelsInFlight()).toBe(2);
    expect(result.models.map((m) => [m.model, m.outcome, m.correct])).toEqual([
      ["t/gate-a", "ok", 8],
      ["t/gate-b", "ok", 8],
      ["t/gate-c", "ok", 8],
    ]);
  });

  it("reports an interpreter that cannot start as a crash, without throwing", async () => {
    h = await inferenceHarness({ RL_PYTHON: "/nonexistent/python3" });
    const result = await runInferenceTest(h.deps(), await h.input(h.plan({ models: ["t/correct"] })));
    expect(result.models[0]).toMatchObject({
      outcome: "crashed",
      error: expect.stringMatching(/^could not start: .*ENOENT/),
    });
    expect(h.spawned).toEqual([]);
  });

  it("gives the key to the child in its environment, never on its command line", async () => {
    h = await inferenceHarness();
    const result = await runInferenceTest(h.deps(), await h.input(h.plan({ models: ["t/correct"] })));
    const child = h.spawned[0]!;
    expect(child.cmdline).toContain("process --env.total_steps 2 --env.group_size 4");
    expect(child.cmdline).toContain("--openai.model_name t/correct");
    expect(child.cmdline).not.toContain(KEY);
    expect(child.command.join(" ")).not.toContain(KEY);
    expect(result.models[0]?.command).toEqual(child.command);
    expect(child.environ).toContain(`OPENAI_API_KEY=${KEY}`);
    // atroposlib sends the config's api_key as it is; only None makes the OpenAI client read OPENAI_API_KEY.
    const config = child.command[child.command.indexOf("--config") + 1]!;
    expect(child.command).toContain("--config");
    expect(readFileSync(config, "utf8")).not.toContain(KEY);
    const read = execFileSync(
      "python3",
      ["-c", "import yaml,sys,json; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", config],
      {
        encoding: "utf8",
      },
    );
    expect(JSON.parse(read)).toEqual({ openai: { api_key: null } });
    // The bot's own copy of the key under its own name stays with the bot.
    expect(child.environ).not.toContain("OPENROUTER_API_KEY");
    expect(
      h.fake.requests.filter((r) => r.model === "t/correct").every((r) => r.authorization === `Bearer ${KEY}`),
    ).toBe(true);
  });

  it("sends no key to a local endpoint that is not RL_TEST_BASE_URL, not even one inherited by the bot", async () => {
    h = await inferenceHarness({ RL_TEST_BASE_URL: "https://openrouter.ai/api/v1" });
    const deps = h.deps({ processEnv: { ...process.env, OPENAI_API_KEY: "sk-bots-own-openai-key" } });
    const result = await runInferenceTest(
      deps,
      await h.input(h.plan({ models: ["t/correct"], baseUrl: h.fake.baseUrl })),
    );
    expect(result).toMatchObject({ api_key_sent: false, summary: { environment_working: true } });
    expect(h.spawned[0]?.environ).not.toContain("OPENAI_API_KEY=");
    expect(h.fake.requests.map((r) => r.authorization)).toEqual(["Bearer x", "Bearer x"]);
  });
});
