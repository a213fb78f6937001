// Which output file is trusted: the planned one, the one named by "Changed data path to ...", never an older or outside one.
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findChangedDataPath, resolveOutputFile, stampOf } from "../../src/inference/resolve-output-file.ts";
import { tempDir } from "../helpers/test-services.ts";

function setup() {
  const dir = tempDir("rl-resolve-");
  const folder = path.join(dir, "inference-tests", "abc");
  mkdirSync(folder, { recursive: true });
  return { dir, folder, planned: path.join(folder, "01-m.jsonl"), stdoutPath: path.join(folder, "01-m.out.log") };
}

describe("findChangedDataPath", () => {
  it("takes the new path from Atropos's line, even with ' because ' inside the path", () => {
    const planned = "/d/x because y/01-m.jsonl";
    expect(
      findChangedDataPath(
        ["noise", `Changed data path to /d/x because y/01-m_1.jsonl because ${planned} already exists.`],
        planned,
      ),
    ).toBe("/d/x because y/01-m_1.jsonl");
    expect(
      findChangedDataPath(["Changed data path to /a_1.jsonl because /a.jsonl already exists."], "/other.jsonl"),
    ).toBe("/a_1.jsonl");
    expect(findChangedDataPath(["Processing 3 groups"], "/a.jsonl")).toBeUndefined();
  });
});

describe("resolveOutputFile", () => {
  it("accepts a file written after the child started", async () => {
    const { folder, planned, stdoutPath } = setup();
    writeFileSync(stdoutPath, "Completed processing 3 groups\n");
    writeFileSync(planned, "{}\n");
    expect(await resolveOutputFile({ planned, stdoutPath, cwd: folder, startedAt: Date.now() - 100 })).toEqual({
      file: planned,
    });
  });

  it("follows the Changed data path line to the file really written", async () => {
    const { folder, planned, stdoutPath } = setup();
    const renamed = path.join(folder, "01-m_1.jsonl");
    writeFileSync(planned, "stale\n");
    const before = stampOf(planned);
    writeFileSync(stdoutPath, `Changed data path to ${renamed} because ${planned} already exists.\n`);
    writeFileSync(renamed, "{}\n");
    expect(await resolveOutputFile({ planned, before, stdoutPath, cwd: folder, startedAt: Date.now() - 100 })).toEqual({
      file: renamed,
    });
  });

  it("refuses a planned file the child never touched", async () => {
    const { folder, planned, stdoutPath } = setup();
    writeFileSync(planned, "stale\n");
    const before = stampOf(planned);
    writeFileSync(stdoutPath, "");
    const got = await resolveOutputFile({ planned, before, stdoutPath, cwd: folder, startedAt: Date.now() - 100 });
    expect(got).toEqual({ error: expect.stringMatching(/before this test/) });
  });

  it("refuses a file last written long before the child started", async () => {
    const { folder, planned, stdoutPath } = setup();
    writeFileSync(planned, "old\n");
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(planned, hourAgo, hourAgo);
    writeFileSync(stdoutPath, "");
    expect(await resolveOutputFile({ planned, stdoutPath, cwd: folder, startedAt: Date.now() })).toEqual({
      error: expect.stringMatching(/before this test started/),
    });
  });

  it("refuses a path outside the test's folder and a symbolic link", async () => {
    const { dir, folder, planned, stdoutPath } = setup();
    const outside = path.join(dir, "elsewhere.jsonl");
    writeFileSync(outside, "{}\n");
    writeFileSync(
      stdoutPath,
      `Changed data path to ${outside} because ${planned} already exists.\nChanged data path to ../../elsewhere.jsonl because ${planned} already exists.\n`,
    );
    expect(await resolveOutputFile({ planned, stdoutPath, cwd: folder, startedAt: Date.now() - 100 })).toEqual({
      error: expect.stringMatching(/outside this test's folder/),
    });

    writeFileSync(stdoutPath, "");
    symlinkSync(outside, planned);
    expect(await resolveOutputFile({ planned, stdoutPath, cwd: folder, startedAt: Date.now() - 100 })).toEqual({
      error: expect.stringMatching(/symbolic link/),
    });
  });

  it("reports a missing file", async () => {
    const { folder, planned, stdoutPath } = setup();
    expect(await resolveOutputFile({ planned, stdoutPath, cwd: folder, startedAt: Date.now() })).toEqual({
      error: expect.stringMatching(/no output file/),
    });
  });
});
