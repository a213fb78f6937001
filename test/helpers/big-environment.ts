// Writes an environment shaped like a big real one (99 config fields with long descriptions) into a fresh folder.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./test-services.ts";

export const BIG_FIELDS = 99;

/** The field names, in the order the class declares them. */
export const bigFieldNames = (): string[] =>
  Array.from({ length: BIG_FIELDS }, (_, i) => `knob_${String(i).padStart(2, "0")}`);

/**
 * A training root whose environments folder holds `big_env.py` ("big"): 99 int fields, each with a 240-character
 * description; `hostile` goes into the first field's description and the environment's docstring.
 */
export function writeBigEnvironment(hostile = ""): { root: string; envDir: string } {
  const root = tempDir("rl-big-env-");
  const envDir = path.join(root, "environments");
  mkdirSync(envDir, { recursive: true });
  const filler =
    "Controls how strongly the reward shaping weighs this part of the answer, measured over the whole group of rollouts".padEnd(
      240,
      ".",
    );
  const fields = bigFieldNames().map((name, i) => {
    const description = i === 0 && hostile ? hostile : `${name}: ${filler}`;
    return `    ${name}: int = Field(default=${i}, ge=0, le=1000, description=${JSON.stringify(description)})`;
  });
  const source = [
    "from atroposlib.envs.base import BaseEnv, BaseEnvConfig",
    "from pydantic import Field",
    "",
    "",
    "class BigConfig(BaseEnvConfig):",
    ...fields,
    "",
    "",
    "class BigEnv(BaseEnv):",
    `    ${JSON.stringify(hostile || "A big environment.")}`,
    '    name = "big"',
    "    env_config_cls = BigConfig",
    "",
  ].join("\n");
  writeFileSync(path.join(envDir, "big_env.py"), source);
  return { root, envDir };
}
