// End-to-end tests of the Python demo stack: run-api + trainer + environment, fault injection, process mode, YAML reader.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToStringOptions } from "yaml";
import { stringifyRunYaml } from "../../src/stacks/atropos-tinker/stringify-run-yaml.ts";
import {
  DEMO_DIR,
  ENV_DIR,
  ProcessPool,
  exitOf,
  freePort,
  getJson,
  makeTempDir,
  mean,
  rewardMeans,
  waitFor,
  writeRunYaml,
  type DemoProcess,
  type StackPorts,
} from "./demo-stack-harness.ts";

const execFileAsync = promisify(execFile);

let pool: ProcessPool;
let tmp: { dir: string; cleanup: () => void };
const logs = (): string => pool.logs();

beforeEach(() => {
  pool = new ProcessPool();
  tmp = makeTempDir();
});

afterEach(async () => {
  await pool.killAll();
  tmp.cleanup();
});

async function startApi(ports: StackPorts): Promise<DemoProcess> {
  const api = pool.start("run-api", ["run_api.py", "--host", "127.0.0.1", "--port", String(ports.api)]);
  await waitFor(
    async () =>
      ((await getJson(`http://127.0.0.1:${ports.api}/`)) as { message?: string }).message === "AtroposLib API",
    "run-api to answer GET /",
    logs,
  );
  return api;
}

async function startTrainer(ports: StackPorts, yamlPath: string): Promise<DemoProcess> {
  const trainer = pool.start("trainer", ["launch_training.py", "--config", yamlPath]);
  await waitFor(
    async () => ((await getJson(`http://127.0.0.1:${ports.inference}/health`)) as { status?: string }).status === "ok",
    "the trainer's /health",
    logs,
  );
  return trainer;
}

function startEnv(file: string, yamlPath: string): DemoProcess {
  return pool.start("env", [path.join("tinker_atropos", "environments", file), "serve", "--config", yamlPath]);
}

async function newPorts(): Promise<StackPorts> {
  return { api: await freePort(), inference: await freePort() };
}

describe("demo stack: run-api + trainer + environment (serve mode)", () => {
  it("trains to completion, exits 0 everywhere, and the reward mean rises", async () => {
    const ports = await newPorts();
    const yamlPath = writeRunYaml(tmp.dir, ports, { env: { seed: 7 }, tinker: { demo_seed: 7 } });
    const api = await startApi(ports);
    const trainer = await startTrainer(ports, yamlPath);
    const env = startEnv("arithmetic_env.py", yamlPath);

    const trainerExit = await exitOf(trainer, logs);
    expect(trainerExit.code, logs()).toBe(0);
    const out = trainer.stdout();
    expect(out).toContain("Registered as trainer:");
    for (let s = 0; s < 8; s++) {
      expect(out).toMatch(new RegExp(`^Step ${s}/8$`, "m"));
      expect(out).toMatch(new RegExp(`^Step ${s} complete - Loss: -?[0-9.e+-]+$`, "m"));
    }
    expect(out).toMatch(/^Loss: -?[0-9.e+-]+$/m);
    expect(out).toContain("Training complete!");
    expect(out).toContain("Final weights are available here: tinker://demo/arithmetic-test/final");
    expect(out).not.toContain("Error in step");

    const envExit = await exitOf(env, logs);
    expect(envExit.code, logs()).toBe(0);
    expect(env.stdout()).toContain("Trajectory API reached step 8 of 8");

    const rewards = rewardMeans(out);
    expect(rewards).toHaveLength(8);
    expect(mean(rewards.slice(-3)), `rewards ${rewards.join(", ")}`).toBeGreaterThan(mean(rewards.slice(0, 3)));

    // run-api never exits by itself: it still answers, with the steps handed out ...
    expect(api.running()).toBe(true);
    const status = (await getJson(`http://127.0.0.1:${ports.api}/status`)) as {
      current_step: number;
      queue_size: number;
    };
    expect(status.current_step).toBe(8);
    expect(typeof status.queue_size).toBe("number");
    // ... and SIGTERM ends it quietly
    process.kill(api.child.pid as number, "SIGTERM");
    const apiExit = await exitOf(api, logs);
    expect(apiExit.signal).toBe("SIGTERM");
    expect(api.stderr()).toBe("");
  });

  it("runs an indirectly derived environment (ParityEnv via ChoiceEnvBase) to completion", async () => {
    const ports = await newPorts();
    const yamlPath = writeRunYaml(tmp.dir, ports, { env: { total_steps: 3, wandb_name: "parity", max_number: 99 } });
    await startApi(ports);
    const trainer = await startTrainer(ports, yamlPath);
    const env = startEnv("parity_env.py", yamlPath);
    expect((await exitOf(trainer, logs)).code, logs()).toBe(0);
    expect((await exitOf(env, logs)).code, logs()).toBe(0);
    expect(rewardMeans(trainer.stdout())).toHaveLength(3);
  });

  it("lets the environment start before the trainer and wait for it", async () => {
    const ports = await newPorts();
    const yamlPath = writeRunYaml(tmp.dir, ports, { env: { total_steps: 2, wandb_name: "letters" } });
    await startApi(ports);
    const env = startEnv("letters_env.py", yamlPath);
    await waitFor(() => env.stdout().includes("Waiting to register the env"), "the env to wait for the trainer", logs);
    const trainer = pool.start("trainer", ["launch_training.py", "--config", yamlPath]);
    expect((await exitOf(trainer, logs)).code, logs()).toBe(0);
    expect((await exitOf(env, logs)).code, logs()).toBe(0);
  });
});

describe("demo stack: trainer fault injection (tinker.demo_fault)", () => {
  it("error_in_step:K prints the step error, breaks the loop, still completes and exits 0", async () => {
    const ports = await newPorts();
    const yamlPath = writeRunYaml(tmp.dir, ports, { tinker: { demo_fault: "error_in_step:2" } });
    await startApi(ports);
    const trainer = await startTrainer(ports, yamlPath);
    startEnv("arithmetic_env.py", yamlPath);
    const exit = await exitOf(trainer, logs);
    expect(exit.code, logs()).toBe(0);
    const out = trainer.stdout();
    expect(out).toContain("Step 1 complete - Loss:");
    expect(out).toMatch(/^Error in step 2: demo fault injected/m);
    expect(out).not.toContain("Step 2 complete");
    expect(out).not.toMatch(/^Step 3\/8$/m);
    expect(out).toContain("Training complete!");
    expect(out).toContain("Final weights are available here: tinker://demo/arithmetic-test/final");
    expect(trainer.stderr()).toContain("Traceback");
  });

  it("crash_in_step:K exits 1 with a traceback and no completion line", async () => {
    const ports = await newPorts();
    const yamlPath = writeRunYaml(tmp.dir, ports, { tinker: { demo_fault: "crash_in_step:1" } });
    await startApi(ports);
    const trainer = await startTrainer(ports, yamlPath);
    startEnv("arithmetic_env.py", yamlPath);
    const exit = await exitOf(trainer, logs);
    expect(exit.code, logs()).toBe(1);
    expect(trainer.stdout()).toContain("Step 0 complete - Loss:");
    expect(trainer.stdout()).toContain("Error during training: demo fault injected: trainer crashed at step 1");
    expect(trainer.stdout()).not.toContain("Training complete!");
    expect(trainer.stderr()).toContain("Traceback (most recent call last)");
    expect(trainer.stderr()).toContain("DemoCrash");
  });

  it("no_health never serves /health and keeps running", async () => {
    const ports = await newPorts();
    const yamlPath = writeRunYaml(tmp.dir, ports, { tinker: { demo_fault: "no_health" } });
    await startApi(ports);
    const trainer = pool.start("trainer", ["launch_training.py", "--config", yamlPath]);
    await waitFor(() => trainer.stdout().includes("Demo fault no_health"), "the trainer to reach its fault", logs);
    await expect(getJson(`http://127.0.0.1:${ports.inference}/health`)).rejects.toThrow();
    expect(trainer.running()).toBe(true);
    const status = (await getJson(`http://127.0.0.1:${ports.api}/status`)) as { current_step: number };
    expect(status.current_step).toBe(0);
  });

  it("rejects an unknown demo_fault with exit 1", async () => {
    const ports = await newPorts();
    const yamlPath = writeRunYaml(tmp.dir, ports, { tinker: { demo_fault: "explode" } });
    const trainer = pool.start("trainer", ["launch_training.py", "--config", yamlPath]);
    expect((await exitOf(trainer, logs)).code).toBe(1);
    expect(trainer.stderr()).toContain("demo_fault 'explode'");
  });
});

interface RecordedRequest {
  url: string;
  authorization: string | undefined;
  body: { model?: string; n?: number; messages?: { role: string; content: string }[] };
}

/** A tiny OpenAI-compatible endpoint: per completion index i, answers right (i % 4 == 0 or 3, the latter
 * as "Answer: X."), wrong (i % 4 == 1) or malformed with null content (i % 4 == 2). */
async function startFakeOpenAI(status = 200): Promise<{ server: Server; url: string; requests: RecordedRequest[] }> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw || "{}") as RecordedRequest["body"];
      requests.push({ url: req.url ?? "", authorization: req.headers.authorization, body });
      res.setHeader("Content-Type", "application/json");
      if (status !== 200 || req.url !== "/v1/chat/completions") {
        res.statusCode = status !== 200 ? status : 404;
        res.end(JSON.stringify({ error: { message: "invalid api key", code: status } }));
        return;
      }
      const user = [...(body.messages ?? [])].reverse().find((m) => m.role === "user")?.content ?? "";
      const number = Number(/Is (\d+) even or odd\?/.exec(user)?.[1] ?? "0");
      const right = number % 2 === 0 ? "even" : "odd";
      const wrong = right === "even" ? "odd" : "even";
      const choices = Array.from({ length: body.n ?? 1 }, (_, i) => {
        const content = [right, wrong, null, `Answer: ${right}.`][i % 4];
        return { index: i, message: { role: "assistant", content }, finish_reason: "stop" };
      });
      res.end(JSON.stringify({ id: "x", object: "chat.completion", created: 0, model: body.model, choices }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return { server, url: `http://127.0.0.1:${port}/v1`, requests };
}

const GROUP_KEYS = [
  "advantages",
  "generation_params",
  "group_overrides",
  "images",
  "inference_logprobs",
  "masks",
  "messages",
  "overrides",
  "ref_logprobs",
  "scores",
  "tokens",
];

describe("demo environments: process mode (inference test, no trainer)", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  /** What /rl test passes: api_key null, so the OpenAI client (and the miniature) reads OPENAI_API_KEY. */
  function keyFromEnvironmentConfig(): string {
    const file = path.join(tmp.dir, "key-from-env.yaml");
    writeFileSync(file, "openai:\n  api_key: null\n");
    return file;
  }

  function processArgs(url: string, config?: string): string[] {
    return [
      path.join(ENV_DIR, "parity_env.py"),
      "process",
      "--env.total_steps",
      "3",
      "--env.group_size",
      "4",
      "--env.use_wandb",
      "false",
      "--openai.base_url",
      url,
      "--openai.model_name",
      "test-model",
      ...(config === undefined ? [] : ["--config", config]),
    ];
  }

  it("sends config_init's api_key, not OPENAI_API_KEY, unless the config's api_key is null (as atroposlib does)", async () => {
    const fake = await startFakeOpenAI();
    servers.push(fake.server);
    const run = pool.start("process-x", processArgs(fake.url), {
      cwd: tmp.dir,
      env: { OPENAI_API_KEY: "sk-not-sent-123" },
    });
    expect((await exitOf(run, logs)).code, logs()).toBe(0);
    expect(fake.requests.length).toBeGreaterThan(0);
    for (const r of fake.requests) expect(r.authorization).toBe("Bearer x");
  });

  it("writes one JSON line per group, takes the key from OPENAI_API_KEY, and never overwrites a result file", async () => {
    const fake = await startFakeOpenAI();
    servers.push(fake.server);
    const key = "sk-demo-test-key-123";
    const config = keyFromEnvironmentConfig();
    expect(readFileSync(config, "utf8")).not.toContain(key);
    const first = pool.start("process-1", processArgs(fake.url, config), {
      cwd: tmp.dir,
      env: { OPENAI_API_KEY: key },
    });
    expect((await exitOf(first, logs)).code, logs()).toBe(0);
    expect(first.child.spawnargs.join(" ")).not.toContain(key);
    expect(first.stdout()).not.toContain(key);

    const out = path.join(tmp.dir, "data", "parity.jsonl");
    const lines = readFileSync(out, "utf8").trim().split("\n");
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      const group = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(group).sort()).toEqual(GROUP_KEYS);
      expect(group.scores).toEqual([1, 0, 0, 1]);
      expect((group.tokens as number[][]).length).toBe(4);
      expect((group.masks as number[][])[0]?.[0]).toBe(-100);
      expect((group.messages as unknown[]).length).toBe(4);
    }
    expect(fake.requests.length).toBeGreaterThanOrEqual(3);
    for (const r of fake.requests) {
      expect(r.url).toBe("/v1/chat/completions");
      expect(r.authorization).toBe(`Bearer ${key}`);
      expect(r.body.model).toBe("test-model");
      expect(r.body.n).toBe(4);
    }

    // A second run must not overwrite (nor append to) the first run's file: it writes parity_1.jsonl.
    const before = readFileSync(out, "utf8");
    const second = pool.start("process-2", processArgs(fake.url, config), {
      cwd: tmp.dir,
      env: { OPENAI_API_KEY: key },
    });
    expect((await exitOf(second, logs)).code, logs()).toBe(0);
    expect(second.stdout()).toContain("Changed data path to data/parity_1.jsonl");
    expect(readFileSync(out, "utf8")).toBe(before);
    expect(
      readFileSync(path.join(tmp.dir, "data", "parity_1.jsonl"), "utf8")
        .trim()
        .split("\n"),
    ).toHaveLength(3);
  });

  it("honours --env.data_path_to_save_groups and writes _1 when that file exists", async () => {
    const fake = await startFakeOpenAI();
    servers.push(fake.server);
    const target = path.join(tmp.dir, "inference_tests", "test_parity_model.jsonl");
    const args = [...processArgs(fake.url), "--env.data_path_to_save_groups", target];
    const first = pool.start("process-1", args, { cwd: tmp.dir, env: { OPENAI_API_KEY: "k" } });
    expect((await exitOf(first, logs)).code, logs()).toBe(0);
    expect(existsSync(target)).toBe(true);
    writeFileSync(target, "stale\n");
    const second = pool.start("process-2", args, { cwd: tmp.dir, env: { OPENAI_API_KEY: "k" } });
    expect((await exitOf(second, logs)).code, logs()).toBe(0);
    expect(readFileSync(target, "utf8")).toBe("stale\n");
    expect(
      readFileSync(target.replace(/\.jsonl$/, "_1.jsonl"), "utf8")
        .trim()
        .split("\n"),
    ).toHaveLength(3);
  });

  it("exits 1 with a message on stderr when the endpoint answers an HTTP error", async () => {
    const fake = await startFakeOpenAI(401);
    servers.push(fake.server);
    const proc = pool.start("process", processArgs(fake.url), { cwd: tmp.dir, env: { OPENAI_API_KEY: "bad" } });
    expect((await exitOf(proc, logs)).code, logs()).toBe(1);
    expect(proc.stderr()).toContain("Error: inference request failed");
    expect(proc.stderr()).toContain("HTTP 401");
  });

  it("exits 2 on an unknown --env flag", async () => {
    const proc = pool.start(
      "process",
      [path.join(ENV_DIR, "arithmetic_env.py"), "process", "--env.no_such_field", "1"],
      {
        cwd: tmp.dir,
      },
    );
    expect((await exitOf(proc, logs)).code).toBe(2);
    expect(proc.stderr()).toContain("--env.no_such_field");
  });
});

describe("demo_yaml.py reads what the bot's run YAML writer writes", () => {
  const config = {
    env: {
      group_size: 8,
      tokenizer_name: "Qwen/Qwen3-8B",
      rollout_server_url: "http://127.0.0.1:8000",
      use_wandb: false,
      wandb_name: null,
      eval_limit_ratio: 0.1,
      max_reasoning_tokens: null,
      operations: ["add", "sub", "mul"],
      empty_list: [],
      empty_map: {},
      difficulty: "hard",
      looks_like_bool: "true",
      looks_like_number: "123",
      looks_like_null: "null",
      yes_word: "yes",
      with_colon: "a: b",
      with_hash: "x # y",
      quotes: `it's "quoted"`,
      multiline: "line1\nline2\n",
      leading_space: " padded",
      unicode: "héllo ✓",
      long_text: "word ".repeat(40).trim(),
      negative: -5,
      small: 0.00004,
      nested: { deeper: { items: [1, 2.5, { name: "z", flags: [true, false] }] } },
    },
    openai: [
      { model_name: "Qwen/Qwen3-8B", base_url: "http://127.0.0.1:8001/v1", api_key: "x", weight: 1.0, timeout: 3600 },
      { model_name: "other", base_url: "http://127.0.0.1:8002/v1" },
    ],
    tinker: {
      lora_rank: 32,
      learning_rate: 0.00004,
      demo_fault: "error_in_step:2",
      wandb_group: null,
      demo_step_seconds: 0.05,
    },
    slurm: false,
    testing: false,
  };
  const variants: Record<string, ToStringOptions> = {
    default: {},
    "sequences at the key's indentation (PyYAML style)": { indentSeq: false },
    "double-quoted strings": { defaultStringType: "QUOTE_DOUBLE" },
    "single-quoted strings": { defaultStringType: "QUOTE_SINGLE" },
    "narrow lines (folded scalars)": { lineWidth: 24, minContentWidth: 0 },
    "flow collections": { collectionStyle: "flow" },
    "indent 4": { indent: 4 },
  };

  for (const [name, options] of Object.entries(variants)) {
    it(`parses a nested run config: ${name}`, async () => {
      const file = path.join(tmp.dir, "config.yaml");
      writeFileSync(file, stringifyRunYaml(config, options));
      const { stdout } = await execFileAsync("python3", ["demo_yaml.py", file], {
        cwd: DEMO_DIR,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
      });
      expect(JSON.parse(stdout)).toEqual(config);
    });
  }

  it("reports malformed YAML with exit 2 and the line number", async () => {
    const file = path.join(tmp.dir, "bad.yaml");
    writeFileSync(file, "env:\n  group_size: 8\n  group_size: 9\n");
    const err = await execFileAsync("python3", ["demo_yaml.py", file], { cwd: DEMO_DIR }).catch((e: unknown) => e);
    expect((err as { code?: number }).code).toBe(2);
    expect((err as { stderr?: string }).stderr).toContain("line 3");
  });

  it("passes the demo's own Python unit tests (YAML reader, config model, CLI, policy)", async () => {
    const { stderr } = await execFileAsync("python3", ["-m", "unittest", "discover", "-s", "tests"], {
      cwd: DEMO_DIR,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    expect(stderr).toMatch(/\nOK\s*$/);
  });
});
