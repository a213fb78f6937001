// The parse pool shares a batch with its helper threads, which take files from it by themselves: a helper keeps
// parsing while this thread is held up (a long synchronous step, an event loop with no turn to give), and every file
// gets the outcome this thread alone would have given it, in the files' order.
import { afterEach, describe, expect, it } from "vitest";
import { analysePythonFile } from "../../src/environments/python/analyse-python-file.ts";
import { Claims, HERE, fileOf, shareBytes } from "../../src/environments/threads/parse-batch.ts";
import { pythonParser } from "../../src/environments/threads/load-python-parser.ts";
import { createParsePool, type ParsePool } from "../../src/environments/threads/parse-pool.ts";

const source = (name: string, methods: number): Uint8Array =>
  new TextEncoder().encode(
    `from atroposlib.envs.base import BaseEnv\n\n\nclass ${name}(BaseEnv):\n    name = "${name.toLowerCase()}"\n\n` +
      Array.from({ length: methods }, (_, i) => `    def step_${i}(self, x):\n        return x * ${i}\n`).join("\n"),
  );

const pools: ParsePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

/** Blocks this thread, event loop included, for `ms`. */
const holdThread = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

describe("parsing a batch on several threads", () => {
  it("lets a helper take files while this thread is held up, and answers each file as this thread alone would", async () => {
    const pool = createParsePool(2, { helperMinBytes: 0 });
    pools.push(pool);
    pool.prepare(0);
    const files = Array.from({ length: 12 }, (_, i) => source(`Env${i}`, 200 + i * 10));
    // A first batch: by its end the helper is up with its parser.
    await pool.parseAll(files.slice(0, 6), async () => holdThread(50));
    let taken = 0;
    const outcomes = await pool.parseAll(files, async () => {
      taken += 1;
      // Held up synchronously: no message from the helper is taken in, none is sent to it.
      holdThread(100);
    });
    // This thread's last call finds nothing left to take; the helper took the files this thread did not.
    const takenHere = taken - 1;
    expect(takenHere).toBeLessThan(files.length);
    expect(outcomes).toEqual(files.map((bytes) => analysePythonFile(pythonParser(), bytes)));
  });

  it("parses everything in this thread when it may use no other", async () => {
    const pool = createParsePool(1, { helperMinBytes: 0 });
    pools.push(pool);
    pool.prepare(0);
    const files = [source("Alone", 5), new Uint8Array([0xff, 0xfe])];
    let taken = 0;
    const outcomes = await pool.parseAll(files, async () => {
      taken += 1;
    });
    expect(taken).toBe(files.length + 1);
    expect(outcomes[0]).toMatchObject({ kind: "summary" });
    expect(outcomes[1]).toEqual({ kind: "refused", message: "not valid UTF-8; skipped" });
  });
});

describe("a batch's claims", () => {
  it("hands each file to one thread, and names the files a thread took", () => {
    const claims = Claims.create(3);
    expect([claims.take(HERE), claims.take(2), claims.take(HERE), claims.take(2)]).toEqual([0, 1, 2, undefined]);
    expect(claims.takenBy(2)).toEqual([1]);
    expect(claims.takenBy(HERE)).toEqual([0, 2]);
    expect(claims.helpersStopped).toBe(false);
    claims.stopHelpers();
    expect(claims.helpersStopped).toBe(true);
  });

  it("shares the files' bytes once, each file readable at its place", () => {
    const files = [new Uint8Array([1, 2]), new Uint8Array([]), new Uint8Array([3])];
    const shared = shareBytes(files);
    expect(files.map((_, index) => [...fileOf(shared, index)])).toEqual([[1, 2], [], [3]]);
  });
});
