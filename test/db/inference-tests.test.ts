import path from "node:path";
import { describe, expect, it } from "vitest";
import { createInferenceTestsRepo } from "../../db/inference-tests.ts";
import { openDatabase } from "../../db/open-database.ts";
import { tempDir } from "../helpers/test-services.ts";

describe("inference tests repository", () => {
  it("fails the tests an earlier process left running, and only those", () => {
    const db = openDatabase(path.join(tempDir(), "state.db"));
    const repo = createInferenceTestsRepo(db, () => 42);
    const channel = { platform: "slack", workspace: "T", channel: "C" };
    repo.insert({ id: "t1", channel, environment: "arithmetic", createdBy: "U1" });
    repo.insert({ id: "t2", channel, environment: "arithmetic", createdBy: "U1" });
    repo.finish("t2", "completed", { ok: true });
    expect(repo.failInterrupted()).toBe(1);
    expect(repo.get("t1")).toMatchObject({
      status: "failed",
      finishedAt: 42,
      result: { error: expect.stringMatching(/restarted/) },
    });
    expect(repo.get("t2")).toMatchObject({ status: "completed", result: { ok: true } });
    expect(repo.failInterrupted()).toBe(0);
    db.close();
  });
});
