// A rescan after some files changed keeps what the last resolution found in files the change does not reach, and
// resolves again every file whose resolution looked at a changed one, however it got there.
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEnvironmentScanner, type EnvironmentScanner } from "../../src/environments/scanner.ts";
import type { EnvironmentInfo, ScanResult } from "../../src/environments/types.ts";

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

let stamp = Date.parse("2030-01-01T00:00:00Z");
/** Writes a file with an mtime of its own, so the cache sees the change whatever the clock's resolution. */
async function write(dir: string, name: string, text: string): Promise<void> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  stamp += 60_000;
  await utimes(file, new Date(stamp), new Date(stamp));
}

async function folder(files: Record<string, string>): Promise<{ dir: string; scanner: EnvironmentScanner }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rl-rescan-"));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) await write(dir, name, text);
  return { dir, scanner: createEnvironmentScanner({ lockedEnv: {} }) };
}

function env(result: ScanResult, className: string): EnvironmentInfo {
  const found = result.environments.find((candidate) => candidate.className === className);
  if (!found) throw new Error(`no ${className}; found ${result.environments.map((e) => e.className).join(", ")}`);
  return found;
}

const groupSize = (info: EnvironmentInfo) => info.fields.find((field) => field.name === "group_size")?.default;

const HELPER = (size: number) => `from atroposlib.envs.base import BaseEnv, BaseEnvConfig


class HelperBase(BaseEnv):
    @classmethod
    def config_init(cls):
        return BaseEnvConfig(group_size=${size}), []
`;

const USES_HELPER = `from _helper import HelperBase


class UsesHelper(HelperBase):
    name = "uses_helper"
`;

const STANDALONE = (name: string) => `from atroposlib.envs.base import BaseEnv


class Standalone(BaseEnv):
    name = "${name}"
`;

describe("a rescan after a change", () => {
  it("keeps the environments of files the change does not reach, and resolves again the ones it reaches", async () => {
    const { dir, scanner } = await folder({
      "_helper.py": HELPER(4),
      "uses_helper.py": USES_HELPER,
      "standalone.py": STANDALONE("standalone"),
    });
    const first = await scanner.scan(dir);
    expect(groupSize(env(first, "UsesHelper"))).toBe(4);

    await write(dir, "_helper.py", HELPER(12));
    const second = await scanner.scan(dir);
    // Reached through its base class in the changed file: resolved again.
    expect(groupSize(env(second, "UsesHelper"))).toBe(12);
    // Nothing it looked at changed: the very same description as before.
    expect(env(second, "Standalone")).toBe(env(first, "Standalone"));
    expect(env(second, "UsesHelper")).not.toBe(env(first, "UsesHelper"));

    // The changed base no longer derives from BaseEnv: the file that reaches it has no environment any more.
    await write(dir, "_helper.py", "class HelperBase:\n    pass\n");
    const third = await scanner.scan(dir);
    expect(third.environments.map((info) => info.className)).toEqual(["Standalone"]);
  });

  it("follows a change through a chain of re-exports", async () => {
    const { dir, scanner } = await folder({
      "_helper.py": HELPER(4),
      "_reexport.py": "from _helper import HelperBase\n",
      "chained.py": "from _reexport import HelperBase\n\n\nclass Chained(HelperBase):\n    name = 'chained'\n",
    });
    expect(groupSize(env(await scanner.scan(dir), "Chained"))).toBe(4);
    await write(dir, "_helper.py", HELPER(7));
    expect(groupSize(env(await scanner.scan(dir), "Chained"))).toBe(7);
  });

  it("resolves again a base found by name alone when any other file changes", async () => {
    // `Base` is never imported: like the seed, any class of that name in the folder is taken, the first by path.
    const { dir, scanner } = await folder({
      "b_base.py": "from atroposlib.envs.base import BaseEnv\n\n\nclass Base(BaseEnv):\n    pass\n",
      "c_env.py": "class ByName(Base):\n    name = 'by_name'\n",
      "a_other.py": STANDALONE("other"),
    });
    expect((await scanner.scan(dir)).environments.map((info) => info.className)).toContain("ByName");
    // A file earlier by path now holds a class called Base that is no environment's base.
    await write(dir, "a_other.py", `${STANDALONE("other")}\n\nclass Base:\n    pass\n`);
    expect((await scanner.scan(dir)).environments.map((info) => info.className)).not.toContain("ByName");
  });

  it("gives a name back to an environment once the file it shared the name with changes its own", async () => {
    const { dir, scanner } = await folder({
      "a_first.py": STANDALONE("shared"),
      "b_second.py": STANDALONE("shared").replace("Standalone", "Second"),
    });
    const first = await scanner.scan(dir);
    expect(env(first, "Second").name).toBe("b_second.py");
    await write(dir, "a_first.py", STANDALONE("renamed"));
    const second = await scanner.scan(dir);
    expect(env(second, "Standalone").name).toBe("renamed");
    expect(env(second, "Second").name).toBe("shared");
  });
});
