// The scanner leaves unparsed the files that cannot hold an environment and that no parsed file reaches: checked
// against resolving every file of the same folders, and on what it reports for the files it skips.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import Parser from "tree-sitter";
import Python from "tree-sitter-python";
import { afterEach, describe, expect, it } from "vitest";
import { resolveEnvironments } from "../../src/environments/resolution/resolve-environments.ts";
import type { SummarizedFile } from "../../src/environments/resolution/resolve-symbols.ts";
import { createEnvironmentScanner } from "../../src/environments/scanner.ts";
import { summarizePythonFile } from "../../src/environments/python/summarize-python-file.ts";
import type { ScanResult } from "../../src/environments/types.ts";

const parser = new Parser();
parser.setLanguage(Python as Parser.Language);
const ATROPOS = "from atroposlib.envs.base import BaseEnv, BaseEnvConfig\n";

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function writeFolder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rl-unreached-"));
  temps.push(dir);
  for (const [key, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, key)), { recursive: true });
    await writeFile(path.join(dir, key), text);
  }
  return dir;
}

/** Every file parsed and resolved together: what the scan must find, whatever it skips. */
function resolveAll(dir: string, files: Record<string, string>): ScanResult {
  const summarized: SummarizedFile[] = Object.keys(files)
    .sort()
    .map((key) => {
      const outcome = summarizePythonFile(parser, files[key]!);
      if (outcome.kind !== "summary") throw new Error(`${key}: ${outcome.message}`);
      return { key, filePath: path.join(dir, key), summary: outcome.summary };
    });
  return resolveEnvironments({ files: summarized, lockedEnv: {} });
}

/** Folders where an environment, its base, its config class or a value lives in a file that does not mention BaseEnv. */
const FOLDERS: Record<string, Record<string, string>> = {
  "a base through an alias, and a chain of bases": {
    "base.py": `${ATROPOS}class Root(BaseEnv):\n    name = "root"\n`,
    "mid.py": "from base import Root as Alias\n\nclass Mid(Alias):\n    name = 'mid'\n",
    "leaf.py": 'from mid import Mid\n\nclass Leaf(Mid):\n    """Leaf env."""\n    name = \'leaf\'\n',
    "reexport.py": "from base import Root\nShared = Root\n",
    "user.py": "from reexport import Shared\n\nclass UsesShared(Shared):\n    name = 'uses_shared'\n",
    "star.py": "from mid import *\n\nclass Starred(Mid):\n    name = 'starred'\n",
    "unrelated.py": "class Scorer:\n    def score(self):\n        return 1\n",
  },
  "config classes and values from files without BaseEnv": {
    "env.py": `${ATROPOS}from settings import TaskConfig\nfrom constants import GROUP\n\nclass TaskEnv(BaseEnv):\n    name = "task"\n    env_config_cls = TaskConfig\n\n    @classmethod\n    def config_init(cls):\n        return TaskConfig(group_size=GROUP), []\n`,
    "settings.py":
      "from pydantic import Field\nfrom atroposlib.envs.base import BaseEnvConfig\nfrom constants import LIMIT\n\nclass TaskConfig(BaseEnvConfig):\n    limit: int = Field(default=LIMIT, description='Most items')\n",
    "constants.py": "GROUP = 12\nLIMIT = 99\n",
    "unbound.py": `${ATROPOS}class Loose(BaseEnv):\n    name = "loose"\n    env_config_cls = LooseConfig\n`,
    "defs.py":
      "from atroposlib.envs.base import BaseEnvConfig\n\nclass LooseConfig(BaseEnvConfig):\n    depth: int = 3\n",
    "prompts.py": 'PROMPT = """Answer the question."""\n',
  },
  "packages, relative imports and package prefixes": {
    "pkg/__init__.py": "from .core import PkgBase\n",
    "pkg/core.py": `${ATROPOS}class PkgBase(BaseEnv):\n    pass\n`,
    "pkg/impl.py": "from . import PkgBase\n\nclass PkgEnv(PkgBase):\n    name = 'pkg_env'\n",
    "tinker/common.py": `${ATROPOS}class CommonBase(BaseEnv):\n    pass\n`,
    "tinker/deep/user.py":
      "import tinker_atropos.environments.common as common\n\nclass Prefixed(common.CommonBase):\n    name = 'prefixed'\n",
    "tinker/tools.py": "def helper():\n    return 1\n",
  },
};

describe("files no parsed file reaches", () => {
  for (const [title, files] of Object.entries(FOLDERS)) {
    it(`are skipped without changing what is found: ${title}`, async () => {
      const dir = await writeFolder(files);
      const scanner = createEnvironmentScanner({ lockedEnv: {}, recursive: true });
      const result = await scanner.scan(dir);
      expect(result).toEqual(resolveAll(dir, files));
      expect(result.environments.length).toBeGreaterThan(0);
      // Each folder holds one file nothing reaches.
      expect(scanner.stats().unreached).toBe(1);
    });
  }

  it("finds what they hold once a changed file reaches them, and forgets it when none does", async () => {
    const dir = await writeFolder({
      "env.py": `${ATROPOS}class E(BaseEnv):\n    name = "e"\n`,
      "consts.py": "GROUP = 7\n",
    });
    const scanner = createEnvironmentScanner({ lockedEnv: {} });
    await scanner.scan(dir);
    expect(scanner.stats().unreached).toBe(1);
    const env = `${ATROPOS}from consts import GROUP\n\nclass E(BaseEnv):\n    name = "e"\n\n    @classmethod\n    def config_init(cls):\n        return BaseEnvConfig(group_size=GROUP), []\n`;
    await writeFile(path.join(dir, "env.py"), env);
    const reached = await scanner.scan(dir);
    expect(scanner.stats().unreached).toBe(0);
    expect(reached.environments[0]?.fields.find((field) => field.name === "group_size")?.default).toBe(7);
  });

  it("warn about nothing in the files they skip, and about a broken file once it is reached", async () => {
    const dir = await writeFolder({
      "env.py": `${ATROPOS}class E(BaseEnv):\n    name = "e"\n`,
      "broken_helper.py": "def f(:\n    pass\n",
    });
    expect((await createEnvironmentScanner({ lockedEnv: {} }).scan(dir)).warnings).toEqual([]);
    await writeFile(path.join(dir, "env.py"), `${ATROPOS}import broken_helper\n\nclass E(BaseEnv):\n    name = "e"\n`);
    const warnings = (await createEnvironmentScanner({ lockedEnv: {} }).scan(dir)).warnings;
    expect(warnings.map((warning) => [path.basename(warning.filePath), warning.message])).toEqual([
      ["broken_helper.py", expect.stringContaining("syntax error")],
    ]);
  });
});
