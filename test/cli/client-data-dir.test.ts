// exec's client finds the data folder without the settings parser exactly where loadConfig would, or defers to it.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readClientDataDir } from "../../src/cli/client-data-dir.ts";
import { loadConfig } from "../../src/config.ts";
import { tempDir } from "../helpers/test-services.ts";

/** The client's answer and loadConfig's for a settings file with `yaml` (none when undefined) and `env`. */
function bothFor(yaml: string | undefined, env: NodeJS.ProcessEnv = {}) {
  const cwd = tempDir();
  if (yaml !== undefined) writeFileSync(path.join(cwd, "rl-chatops.yaml"), yaml);
  return { client: readClientDataDir(env, cwd), full: loadConfig(env, cwd).dataDir, cwd };
}

describe("the data folder exec's client reads", () => {
  it.each([
    ["no settings file", undefined],
    ["an empty one", ""],
    ["one without RL_DATA_DIR", "RL_MAX_CONCURRENT_RUNS: 3\n"],
    ["a relative path", "RL_DATA_DIR: ./state\n"],
    ["a path with a comment", "RL_LOG_LEVEL: warn\nRL_DATA_DIR: ../shared/state   # kept\n"],
    ["an absolute path", "RL_DATA_DIR: /tmp/rl-state\r\n"],
    ["a bare name", "RL_DATA_DIR: state\n"],
  ])("is loadConfig's with %s", (_what, yaml) => {
    const { client, full } = bothFor(yaml);
    expect(client).toBe(full);
  });

  it("is the environment's RL_DATA_DIR, which wins over the file", () => {
    const { client, full, cwd } = bothFor("RL_DATA_DIR: ./state\n", { RL_DATA_DIR: "elsewhere" });
    expect(client).toBe(path.join(cwd, "elsewhere"));
    expect(client).toBe(full);
  });

  it.each([
    ["a quoted value", 'RL_DATA_DIR: "./state"\n'],
    ["a number", "RL_DATA_DIR: 0x10\n"],
    ["a flow value", "RL_DATA_DIR: [a, b]\n"],
    ["the name twice", "RL_DATA_DIR: ./a\n# RL_DATA_DIR: ./b\n"],
  ])("is left to loadConfig for %s", (_what, yaml) => {
    expect(bothFor(yaml).client).toBeUndefined();
  });

  it("is left to loadConfig when RL_CONFIG names a missing file, whose error loadConfig gives", () => {
    expect(readClientDataDir({ RL_CONFIG: "missing.yaml" }, tempDir())).toBeUndefined();
  });
});
