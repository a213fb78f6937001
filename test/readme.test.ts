// README is the first screen: what it is, the prerequisites, the two commands, the first answer, then links. The
// guides and reference it links to are checked here too, wherever its old sections moved.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../commands/index.ts";
import { PACKAGE_ROOT } from "../src/config.ts";
import { docFiles, readDoc, sectionOf } from "./docs/doc-files.ts";

const readme = readDoc("README.md");

describe("README", () => {
  it("gives the two set-up commands, and .ci/run runs the same test command", () => {
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
    expect(readFileSync(path.join(PACKAGE_ROOT, ".ci/run"), "utf8")).toMatch(/^npm test$/m);
  });

  it("fits on a first screen: at most 200 lines, the prerequisites a list naming the Node the engines field needs", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
    const engines = (
      JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { engines: { node: string } }
    ).engines.node;
    expect(engines).toBe(">=20.12");
    const prerequisites = sectionOf(readme, "## Prerequisites");
    expect(prerequisites).toMatch(/^- Node\.js 20\.12 or newer/m);
    for (const piece of ["python3", "make", "C++ compiler"]) expect(prerequisites).toContain(piece);
  });

  it("explains every /rl command in the commands reference's own words, beside its generated table", () => {
    const more = sectionOf(readDoc("docs/commands.md"), "## More on each command");
    const missing = COMMANDS.filter((c) => !more.includes(`- \`/rl ${c.name}`));
    expect(missing.map((c) => c.name)).toEqual([]);
  });

  it("walks through training with a real tinker-atropos checkout, and says what discovery cannot know", () => {
    const page = readDoc("docs/training-stacks.md");
    const section = sectionOf(page, "## Training with a real tinker-atropos checkout");
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

  it("names only files and folders of the project that exist, in README and every page of docs/ (a moved file is renamed there too)", () => {
    // bench/results.json is what `npm run bench` writes (gitignored), not a file of the project's; a path after
    // another project's name ("verl's `examples/...`") is that project's.
    const written = ["bench/results.json"];
    const missing = docFiles().flatMap((file) => {
      const pattern = /(?<!'s )`((?:src|commands|adapters|db|test|bench|bin|examples|docs|\.ci)\/[\w./-]*)`/g;
      const named = [...readDoc(file).matchAll(pattern)];
      return [...new Set(named.map((m) => m[1]!))]
        .filter((p) => !written.includes(p))
        .filter((p) => !existsSync(path.join(PACKAGE_ROOT, p)))
        .map((p) => `${file}: ${p}`);
    });
    expect(missing).toEqual([]);
  });
});
