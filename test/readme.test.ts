import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../commands/index.ts";
import { PACKAGE_ROOT, SETTING_NAMES } from "../src/config.ts";

const readme = readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");

describe("README", () => {
  it("gives the two set-up commands, and .ci/run runs the same test command", () => {
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
    expect(readFileSync(path.join(PACKAGE_ROOT, ".ci/run"), "utf8")).toMatch(/^npm test$/m);
  });

  it("lists every /rl command in its commands table", () => {
    const missing = COMMANDS.filter((c) => !readme.includes(`| \`/rl ${c.name}`));
    expect(missing.map((c) => c.name)).toEqual([]);
  });

  it("covers every setting, in its table or by its family's pointer to .env.example", () => {
    const missing = SETTING_NAMES.filter(
      (name) =>
        !readme.includes(name) &&
        !(/^RL_(TEST|SLURM)_/.test(name) && readme.includes(`${name.split("_").slice(0, 2).join("_")}_*`)),
    );
    expect(missing).toEqual([]);
  });

  it("walks through training with a real tinker-atropos checkout, and says what discovery cannot know", () => {
    const start = readme.indexOf("## Training with a real tinker-atropos checkout");
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
    for (const piece of [
      "pip install atroposlib",
      "pip install -e .",
      "RL_PYTHON",
      "RL_API_COMMAND",
      "RL_TRAINER_COMMAND",
      "TINKER_API_KEY",
      "WANDB_API_KEY",
      "8001",
      "RL_LOCKED_FIELDS",
      "server_type: sglang",
      "tinker.learning_rate",
    ]) {
      expect(section, piece).toContain(piece);
    }
    expect(section).toContain("### What discovery cannot know without running the code");
  });
  it("names only files and folders of the project that exist (a moved file is renamed here too)", () => {
    const named = [...readme.matchAll(/`((?:src|commands|adapters|db|test|bench|bin|examples|\.ci)\/[\w./-]*)`/g)];
    // bench/results.json is what `npm run bench` writes (gitignored), not a file of the project's.
    const written = ["bench/results.json"];
    const missing = [...new Set(named.map((m) => m[1]!))]
      .filter((p) => !written.includes(p))
      .filter((p) => !existsSync(path.join(PACKAGE_ROOT, p)));
    expect(missing).toEqual([]);
  });
});
