// Run by stop-helpers.test.ts as a process of its own (`node --import tsx`), in one of two modes:
// - pool: shares a batch of large files with a parse helper and stops the pool while the helper is parsing them;
// - scanner: starts the bot's discovery process on a folder of large files and closes it at moments spread over the
//   scan (its own parse and its helper's in progress);
// then says what it did on stdout and exits.
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { createParsePool } from "../../src/environments/threads/parse-pool.ts";
import { createProcessScanner } from "../../src/environments/discovery-process/process-scanner.ts";

const source = (name: string): string => {
  const methods = Array.from(
    { length: 1500 },
    (_, i) => `    def step_${i}(self, x):\n        return [x * ${i} for _ in range(${i % 7})]\n`,
  );
  return `from atroposlib.envs.base import BaseEnv\n\n\nclass Large(BaseEnv):\n    name = "${name}"\n\n${methods.join("\n")}`;
};

if (process.argv[2] === "pool") {
  const bytes = new TextEncoder().encode(source("large"));
  const pool = createParsePool(2, { helperMinBytes: 0 });
  pool.prepare(0);
  // A first batch: by its end the helper is up with its parser, and takes files of the next one at once.
  await pool.parseAll(Array.from({ length: 4 }, () => bytes));
  // The pool is released as this thread comes to its second file: the helper is then parsing one of the batch's.
  let turns = 0;
  let released: Promise<void> | undefined;
  const outcomes = await pool.parseAll(
    Array.from({ length: 8 }, () => bytes),
    async () => {
      if (++turns === 2) released = pool.release();
    },
  );
  await released;
  // What the helper still owed is parsed in this thread instead.
  process.stdout.write(`released; ${outcomes.filter((outcome) => outcome.kind !== "refused").length} of 8 parsed\n`);
} else {
  const dir = path.join(tmpdir(), `rl-stop-scan-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 12; i++) writeFileSync(path.join(dir, `large_${i}.py`), source(`large_${i}`));
  const small = path.join(dir, "small");
  mkdirSync(small, { recursive: true });
  writeFileSync(path.join(small, "small.py"), source("small"));
  let closed = 0;
  for (let at = 0; at <= 300; at += 50) {
    const scanner = createProcessScanner({ lockedEnv: {}, parseThreads: 2 });
    // A first, small scan: the process has started and loaded its parser, so the moments below fall in the large scan.
    await scanner.scan(small);
    const scanning = scanner.scan(dir).catch(() => undefined);
    await delay(at);
    await scanner.close();
    await scanning;
    closed += 1;
  }
  process.stdout.write(`closed ${closed} scans\n`);
}
