import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COOKBOOK_DEMO_ROOT, DEMO_STACK_ROOT, PACKAGE_ROOT, SETTING_NAMES, loadConfig } from "../src/config.ts";

const tmp = () => mkdtempSync(path.join(tmpdir(), "rl-config-"));

describe("loadConfig", () => {
  it("defaults to the bundled demo stack and ./data", () => {
    const cwd = tmp();
    const config = loadConfig({}, cwd);
    expect(config.trainingRoot).toBe(DEMO_STACK_ROOT);
    expect(config.isDemoStack).toBe(true);
    expect(config.environmentsDir).toBe(path.join(DEMO_STACK_ROOT, "tinker_atropos", "environments"));
    expect(config.dataDir).toBe(path.join(cwd, "data"));
    expect(config.lockedFieldsPath).toBe(path.join(DEMO_STACK_ROOT, "locked-fields.yaml"));
    expect(config.apiCommand).toEqual(["python3", "run_api.py"]);
  });

  it("uses the real stack's commands and the seed's locked fields for another training root", () => {
    const config = loadConfig({ RL_TRAINING_ROOT: "/opt/tinker-atropos" }, tmp());
    expect(config.isDemoStack).toBe(false);
    expect(config.apiCommand).toEqual(["run-api"]);
    expect(config.trainerCommand).toEqual(["python", "launch_training.py"]);
    expect(config.lockedFieldsPath).toBeUndefined();
  });

  it("runs the bundled cookbook miniature with RL_STACK=tinker-cookbook and no training root, and refuses an unknown stack", () => {
    const config = loadConfig({ RL_STACK: "tinker-cookbook" }, tmp());
    expect(config.stack).toBe("tinker-cookbook");
    expect(config.trainingRoot).toBe(COOKBOOK_DEMO_ROOT);
    expect(config.isDemoStack).toBe(true);
    expect(config.environmentsDir).toBe(path.join(COOKBOOK_DEMO_ROOT, "tinker_cookbook", "recipes"));
    expect(config.wandb.project).toBe("tinker-cookbook");
    expect(config.lockedFieldsPath).toBeUndefined();
    expect(loadConfig({}, tmp()).stack).toBe("atropos-tinker");
    expect(() => loadConfig({ RL_STACK: "vrl" }, tmp())).toThrow(
      /^RL_STACK has a bad value: "vrl" is neither a built-in stack \(atropos-tinker, tinker-cookbook[^)]*\) nor a stack manifest file/,
    );
  });

  it("names the variable when a value is bad", () => {
    expect(() => loadConfig({ SLACK_PORT: "eighty" }, tmp())).toThrow(/SLACK_PORT/);
    expect(() => loadConfig({ RL_MAX_CONCURRENT_RUNS: "0" }, tmp())).toThrow(/RL_MAX_CONCURRENT_RUNS/);
    expect(() => loadConfig({ RL_SCAN_RECURSIVE: "maybe" }, tmp())).toThrow(/RL_SCAN_RECURSIVE/);
    expect(() => loadConfig({ WANDB_BASE_URL: "not a url" }, tmp())).toThrow(/WANDB_BASE_URL/);
    // No scheme: "localhost" would be read as one.
    expect(() => loadConfig({ LLM_BASE_URL: "localhost:8080" }, tmp())).toThrow(
      "LLM_BASE_URL has a bad value: expected an http(s) URL such as http://127.0.0.1:8080.",
    );
    expect(loadConfig({ LLM_BASE_URL: "http://localhost:8080/v1" }, tmp()).llm.baseUrl).toBe(
      "http://localhost:8080/v1",
    );
  });

  it("takes RL_APPROVAL_TTL_MINUTES with a fraction of a minute, from one second up, and says what to set otherwise", () => {
    const ttlMs = (value: string) => loadConfig({ RL_APPROVAL_TTL_MINUTES: value }, tmp()).approvals.ttlMs;
    expect(loadConfig({}, tmp()).approvals.ttlMs).toBe(24 * 60 * 60_000);
    expect(ttlMs("30")).toBe(30 * 60_000);
    expect(ttlMs("0.05")).toBe(3_000);
    expect(ttlMs(" 1.5 ")).toBe(90_000);
    for (const bad of ["0", "0.0", "-1", "-0.5", "soon", "1e3", ".5", "0.01"]) {
      expect(() => ttlMs(bad), bad).toThrow(
        "RL_APPROVAL_TTL_MINUTES has a bad value: expected a number of minutes, one second (0.0167) or more, such as 1440 (a day) or 0.5 (30 seconds). Set RL_APPROVAL_TTL_MINUTES in the environment or in the RL_CONFIG file.",
      );
    }
    expect(() => ttlMs("43201")).toThrow(/^RL_APPROVAL_TTL_MINUTES has a bad value: .*43200/);
  });

  it("reads the YAML file, and the environment wins over it", () => {
    const cwd = tmp();
    writeFileSync(
      path.join(cwd, "rl-chatops.yaml"),
      "RL_MAX_CONCURRENT_RUNS: 3\nRL_ADMINS: [slack:U1, discord:2]\nSLACK_PORT: 4000\n",
    );
    const config = loadConfig({ SLACK_PORT: "5000" }, cwd);
    expect(config.maxConcurrentRuns).toBe(3);
    expect(config.policy.admins).toEqual(["slack:U1", "discord:2"]);
    expect(config.slack.port).toBe(5000);
  });

  it("refuses unknown keys in the file and a missing RL_CONFIG file", () => {
    const cwd = tmp();
    writeFileSync(path.join(cwd, "custom.yaml"), "RL_DATADIR: ./x\n");
    expect(() => loadConfig({ RL_CONFIG: "custom.yaml" }, cwd)).toThrow(/unknown setting "RL_DATADIR"/);
    expect(() => loadConfig({ RL_CONFIG: "nope.yaml" }, cwd)).toThrow(/RL_CONFIG/);
  });

  it("reads an empty RL_CONFIG (the .env.example line) as unset: the default file, when there is one", () => {
    const cwd = tmp();
    expect(loadConfig({ RL_CONFIG: "" }, cwd).maxConcurrentRuns).toBe(1);
    writeFileSync(path.join(cwd, "rl-chatops.yaml"), "RL_MAX_CONCURRENT_RUNS: 2\n");
    expect(loadConfig({ RL_CONFIG: "" }, cwd).maxConcurrentRuns).toBe(2);
  });

  it("logs only warnings when the console is the only front end, unless told otherwise", () => {
    expect(loadConfig({}, tmp()).logLevel).toBe("warn");
    expect(loadConfig({ SLACK_BOT_TOKEN: "xoxb-1" }, tmp()).logLevel).toBe("info");
    expect(loadConfig({ RL_LOG_LEVEL: "debug" }, tmp()).logLevel).toBe("debug");
  });

  it("collects the secrets in force so output can be redacted", () => {
    const config = loadConfig({ TINKER_API_KEY: "tk-secret-1", SLACK_BOT_TOKEN: "xoxb-secret" }, tmp());
    expect(config.secrets).toEqual(expect.arrayContaining(["tk-secret-1", "xoxb-secret"]));
  });

  it("documents every setting in .env.example", () => {
    const example = readFileSync(path.join(PACKAGE_ROOT, ".env.example"), "utf8");
    const missing = SETTING_NAMES.filter((name) => !new RegExp(`^${name}=`, "m").test(example));
    expect(missing).toEqual([]);
  });
});
