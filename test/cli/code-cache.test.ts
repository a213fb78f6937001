// The V8 code cache of a built program (src/cli/code-cache.ts): made by the build, taken only for the very bytes it was
// made from, and a program whose cache is missing or stale still runs as it is now.
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DIST } from "../../bin/build.mjs";
import { codeCacheFileOf, WRITE_CODE_CACHE } from "../../src/cli/code-cache.ts";
import { tempDir } from "../helpers/test-services.ts";

const CODE_CACHE = new URL("../../src/cli/code-cache.ts", import.meta.url).href;

/** Loads `file` with requireWithCodeCache in a process of its own, started with no Node flag (as the build's run). */
async function load(file: string, env: NodeJS.ProcessEnv = {}): Promise<{ value: unknown; fromCache: boolean }> {
  const script = `const { requireWithCodeCache } = await import(${JSON.stringify(CODE_CACHE)});
const loaded = requireWithCodeCache(${JSON.stringify(file)});
process.stdout.write(JSON.stringify({ value: loaded.exports.value, fromCache: loaded.fromCache }));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { env: { ...process.env, ...env } },
  );
  return JSON.parse(stdout) as { value: unknown; fromCache: boolean };
}

describe("code cache", () => {
  it("is made by the build for scan's second part, from its very bytes, and V8 takes it", async () => {
    const program = path.join(DIST, "scan-folder.cjs");
    const cache = readFileSync(codeCacheFileOf(program));
    expect(cache.includes(readFileSync(program))).toBe(true);
    expect(await load(program)).toMatchObject({ fromCache: true });
  });

  it("is taken only for the bytes it was made from: an edit of the same length runs as edited", async () => {
    const dir = tempDir();
    const program = path.join(dir, "program.cjs");
    const write = (value: number) =>
      writeFileSync(program, `function answer() { return ${value}; }\nmodule.exports = { value: answer() };\n`);
    write(1);
    // The build's way of making one: a run that writes it as it exits.
    expect(await load(program, { [WRITE_CODE_CACHE]: "1" })).toEqual({ value: 1, fromCache: false });
    expect(await load(program)).toEqual({ value: 1, fromCache: true });
    // Same length, other code: V8's own check (lengths) would take the cache and run the old code.
    write(2);
    expect(await load(program)).toEqual({ value: 2, fromCache: false });
    // No cache at all: the program runs.
    rmSync(codeCacheFileOf(program));
    expect(await load(program)).toEqual({ value: 2, fromCache: false });
  });
});
