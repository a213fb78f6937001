// A log followed as it grows: every line counts once, wherever it is in the file, and a replaced log is read afresh.
import { execFileSync } from "node:child_process";
import { appendFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLogFollower } from "../../src/metrics/follow-log.ts";
import { readTrainerProgress } from "../../src/metrics/trainer-progress.ts";
import { tempDir } from "../helpers/test-services.ts";

const collect = () =>
  createLogFollower<string[]>({
    initial: () => [],
    add: (lines, line) => void lines.push(line),
  });

describe("following a log", () => {
  it("adds each finished line once, keeping a line being written (even one cut inside a character) for later", async () => {
    const file = path.join(tempDir(), "a.log");
    const follow = collect();
    expect(await follow(file)).toEqual([]);
    writeFileSync(file, "one\ntw");
    expect(await follow(file)).toEqual(["one"]);
    const e = Buffer.from("é");
    appendFileSync(file, Buffer.concat([Buffer.from("o "), e.subarray(0, 1)]));
    expect(await follow(file)).toEqual(["one"]);
    appendFileSync(file, Buffer.concat([e.subarray(1), Buffer.from("\nthree\n")]));
    expect(await follow(file)).toEqual(["one", "two é", "three"]);
  });

  it("tells each line's byte offset, and where a line too long to hold starts", async () => {
    const file = path.join(tempDir(), "a.log");
    const follow = createLogFollower<Array<[string, number]>>({
      initial: () => [],
      // Lines over 100 characters are shown by length: a failure must not print a megabyte.
      add: (seen, line, start) => void seen.push([line.length > 100 ? `${line.length} chars` : line, start]),
      addLong: (seen, start) => void seen.push(["(long)", start]),
    });
    const long = 1536 * 1024;
    writeFileSync(file, "é1\n" + "x".repeat(long) + "\nthree\n" + "y".repeat(200) + "\n");
    appendFileSync(file, "fo");
    expect(await follow(file)).toEqual([
      ["é1", 0],
      ["(long)", 4],
      ["three", 4 + long + 1],
      ["200 chars", 4 + long + 7],
    ]);
    appendFileSync(file, "ur\n");
    expect((await follow(file)).at(-1)).toEqual(["four", 4 + long + 208]);
  });

  it("reads a log replaced under its name, or cut short, from its start", async () => {
    const dir = tempDir();
    const file = path.join(dir, "a.log");
    const follow = collect();
    writeFileSync(file, "old 1\nold 2\n");
    expect(await follow(file)).toEqual(["old 1", "old 2"]);
    writeFileSync(path.join(dir, "b.log"), "new\n");
    renameSync(path.join(dir, "b.log"), file);
    expect(await follow(file)).toEqual(["new"]);
    writeFileSync(file, "");
    expect(await follow(file)).toEqual([]);
  });

  it("keeps the first steps and a step error of a trainer log more than 4 MiB long, and reads only what was added", async () => {
    const file = path.join(tempDir(), "trainer.log");
    const noise = `DEBUG ${"x".repeat(100)}\n`.repeat(50_000);
    writeFileSync(file, `Step 0/3\nReward/mean: 0.5\nStep 0 complete - Loss: 1\nError in step 1: boom\n${noise}`);
    const first = await readTrainerProgress(file);
    expect(first.stepErrors).toEqual(["Error in step 1: boom"]);
    expect(first.rewardHistory).toEqual([{ step: 0, value: 0.5 }]);
    appendFileSync(file, "Step 2/3\nReward/mean: 0.75\nTraining complete!\n");
    const next = await readTrainerProgress(file);
    expect(next.rewardHistory).toEqual([
      { step: 0, value: 0.5 },
      { step: 2, value: 0.75 },
    ]);
    expect(next.completed).toBe(true);
    // Each answer is a copy: a later read does not change one already given.
    expect(first.rewardHistory).toHaveLength(1);
  });

  it("gives a log that is a FIFO the initial state at once, without waiting for a writer", async () => {
    const file = path.join(tempDir(), "trainer.log");
    execFileSync("mkfifo", [file]);
    const follow = collect();
    expect(await follow(file)).toEqual([]);
    expect(await readTrainerProgress(file)).toMatchObject({ rewardHistory: [] });
  });
});
