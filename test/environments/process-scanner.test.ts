// Discovery as the bot runs it: the scanner in a process of its own, and helper threads parsing beside a scanner. Both
// must answer exactly what the scanner answers in the caller's thread.
import { createRequire } from "node:module";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HELPER_MIN_BYTES } from "../../src/environments/threads/parse-pool.ts";
import { createEnvironmentScanner } from "../../src/environments/scanner.ts";
import { createProcessScanner } from "../../src/environments/discovery-process/process-scanner.ts";
import { SEED_LOCKED_FIELDS } from "../../src/locked-fields.ts";
import { scannerCleanups } from "./scanner-cleanups.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/envs/", import.meta.url));
const LOCKED_ENV = SEED_LOCKED_FIELDS.env;

const { closing, later } = scannerCleanups();

async function copyOfFixtures(): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), "rl-process-scan-"));
  later(() => rm(root, { recursive: true, force: true }));
  const dir = path.join(root, "envs");
  await cp(FIXTURES, dir, { recursive: true });
  return dir;
}

describe("the scanner in a process of its own", () => {
  // First in this file: nothing has parsed in this process yet.
  it("parses nothing in this thread, and answers what the scanner answers here", async () => {
    const parserLoaded = () =>
      Object.keys(createRequire(import.meta.url).cache).some((file) =>
        file.includes(`${path.sep}tree-sitter${path.sep}`),
      );
    const discovery = closing(createProcessScanner({ lockedEnv: LOCKED_ENV, recursive: true }));
    const inProcess = await discovery.scan(FIXTURES);
    expect(parserLoaded()).toBe(false);
    const here = await createEnvironmentScanner({ lockedEnv: LOCKED_ENV, recursive: true }).scan(FIXTURES);
    expect(parserLoaded()).toBe(true);
    expect(inProcess).toEqual(here);
    expect(here.environments.length).toBeGreaterThan(3);
  });

  it("keeps its cache between scans: an unchanged folder comes back as the same result, a changed file is re-parsed", async () => {
    const dir = await copyOfFixtures();
    const discovery = closing(createProcessScanner({ lockedEnv: LOCKED_ENV }));
    const first = await discovery.scan(dir);
    const parsed = discovery.stats().parsed;
    expect(parsed).toBeGreaterThan(3);
    expect(await discovery.scan(dir)).toBe(first);
    expect(discovery.stats()).toMatchObject({ parsed: 0, cached: parsed });
    const file = path.join(dir, "algebra_env.py");
    await writeFile(file, (await readFile(file, "utf8")).replace('name = "algebra"', 'name = "algebra2"'));
    const changed = await discovery.scan(dir);
    expect(discovery.stats()).toMatchObject({ parsed: 1 });
    expect(changed.environments.map((env) => env.name)).toContain("algebra2");
    // Only what changed crossed over again: the other environments are the objects this thread already had.
    const before = new Map(first.environments.map((env) => [env.name, env]));
    const kept = changed.environments.filter((env) => env === before.get(env.name));
    expect(kept.map((env) => env.name).sort()).toEqual(
      first.environments
        .map((env) => env.name)
        .filter((name) => name !== "algebra")
        .sort(),
    );
    expect(changed).toEqual(await createEnvironmentScanner({ lockedEnv: LOCKED_ENV }).scan(dir));
  });

  it("hands over a result of many environments whole, in order", async () => {
    const dir = await copyOfFixtures();
    const source = await readFile(path.join(dir, "reasoning_env.py"), "utf8");
    for (let i = 0; i < 45; i++)
      await writeFile(
        path.join(dir, `many_${String(i).padStart(2, "0")}_env.py`),
        source.replace(/name = "reasoning"/, `name = "many_${i}"`),
      );
    const here = await createEnvironmentScanner({ lockedEnv: LOCKED_ENV }).scan(dir);
    expect(here.environments.length).toBeGreaterThan(50);
    const inProcess = await closing(createProcessScanner({ lockedEnv: LOCKED_ENV })).scan(dir);
    expect(inProcess).toEqual(here);
    // Fields alike are one object here, though their environments came in different batches (shared-fields.ts).
    const byName = (name: string) => inProcess.environments.find((env) => env.name === name)!;
    const [first, last] = [byName("many_0"), byName("many_44")];
    expect(first.fields.length).toBeGreaterThan(5);
    first.fields.forEach((field, i) => expect(last.fields[i]).toBe(field));
  });

  it("answers concurrent scans each, and a missing folder with its warning", async () => {
    const discovery = closing(createProcessScanner({ lockedEnv: LOCKED_ENV }));
    const missing = path.join(os.tmpdir(), "rl-no-such-folder");
    const [a, b] = await Promise.all([discovery.scan(FIXTURES), discovery.scan(missing)]);
    expect(a.environments.length).toBeGreaterThan(3);
    expect(b).toEqual({
      environments: [],
      warnings: [{ filePath: missing, message: "environments folder not found" }],
    });
  });

  it("fails a scan in flight when it is closed, and starts afresh on the next scan", async () => {
    const discovery = createProcessScanner({ lockedEnv: LOCKED_ENV });
    const failed = expect(discovery.scan(FIXTURES)).rejects.toMatchObject({
      code: "INTERNAL",
      message: expect.stringContaining("stopped"),
    });
    await discovery.close();
    await failed;
    closing(discovery);
    expect((await discovery.scan(FIXTURES)).environments.length).toBeGreaterThan(3);
  });

  it("puts a new discovery process's fields back with its own numbering, not the one before's", async () => {
    const discovery = closing(createProcessScanner({ lockedEnv: LOCKED_ENV }));
    const dir = await copyOfFixtures();
    const first = await discovery.scan(dir);
    await discovery.close();
    // One environment of them alone: the new process numbers its fields from 0 in its own order, and its field 0, 1, ...
    // are other fields (other defaults) than the last process's.
    const other = path.join(path.dirname(dir), "other");
    await mkdir(other);
    await cp(path.join(dir, "reasoning_env.py"), path.join(other, "reasoning_env.py"));
    const here = await createEnvironmentScanner({ lockedEnv: LOCKED_ENV }).scan(other);
    expect(here.environments.map((env) => env.fields)).not.toEqual(first.environments.map((env) => env.fields));
    expect(await discovery.scan(other)).toEqual(here);
  });
});

describe("helper threads", () => {
  it("parse a large folder to the same answer as one thread", async () => {
    const dir = await copyOfFixtures();
    // Enough bytes for the helpers to start: copies of a fixture under other names, and three large files.
    const source = await readFile(path.join(dir, "reasoning_env.py"), "utf8");
    for (let i = 0; i < 24; i++)
      await writeFile(path.join(dir, `copy_${i}_env.py`), source.replace(/name = "reasoning"/, `name = "copy_${i}"`));
    const helpers = Array.from(
      { length: HELPER_MIN_BYTES / 150 },
      (_, i) => `def helper_${i}(values):\n    return [value * ${i} for value in values]\n\n`,
    );
    for (let i = 0; i < 3; i++)
      await writeFile(
        path.join(dir, `large_${i}_env.py`),
        `${source.replace(/name = "reasoning"/, `name = "large_${i}"`)}\n\n${helpers.join("")}`,
      );
    const sizes = await Promise.all((await readdir(dir)).map(async (name) => (await stat(path.join(dir, name))).size));
    expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThan(HELPER_MIN_BYTES);
    const one = await createEnvironmentScanner({ lockedEnv: LOCKED_ENV, parseThreads: 1 }).scan(dir);
    const three = await closing(createEnvironmentScanner({ lockedEnv: LOCKED_ENV, parseThreads: 3 })).scan(dir);
    expect(three).toEqual(one);
    expect(one.environments.map((env) => env.name)).toEqual(
      expect.arrayContaining(["copy_0", "copy_23", "large_0", "large_2"]),
    );
  });
});
