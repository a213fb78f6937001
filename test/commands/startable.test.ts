// /rl start and /rl test refuse an environment its file cannot start, with the reason; /rl envs lists why.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import type { EnvironmentSummary } from "../../src/environment-ops.ts";
import type { Services } from "../../src/services.ts";
import { testServices } from "../helpers/test-services.ts";

const FOLDER = fileURLToPath(new URL("../fixtures/atropos-shapes/entry_points/", import.meta.url));
const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const channel = { platform: "slack", workspace: "T1", channel: "C1" };
function setup() {
  // A training root of our own: the entry-point shapes, among them a file whose main block starts only one of its classes.
  const s = testServices({
    RL_DEFAULT_ROLE: "operate",
    RL_TRAINING_ROOT: FOLDER,
    RL_ENVIRONMENTS_DIR: ".",
    TINKER_API_KEY: "tk-test",
    RL_TEST_BASE_URL: "http://127.0.0.1:9/v1",
  });
  opened.push(s);
  const ctx: CommandContext = { channel, user: { id: "U1" }, via: "slash", services: s };
  return { s, ctx };
}

describe("environments that cannot be started", () => {
  it("are listed with the reason", async () => {
    const { ctx } = setup();
    const out = await dispatch({ text: "/rl envs" }, ctx);
    const envs = (out.reply.data as { environments: EnvironmentSummary[] }).environments;
    expect(Object.fromEntries(envs.map((e) => [e.name, e.runnable]))).toEqual({
      pairwise: false,
      launcher: true,
      scripted: false,
      shared_base: false,
      easy_puzzle: true,
      hard_puzzle: false,
    });
    expect(out.reply.text).toContain(
      "hard_puzzle (HardPuzzleEnv): Hard puzzles, started from their own launcher. [cannot be started: the if __name__",
    );
    expect(out.reply.text).not.toMatch(/easy_puzzle.*cannot be started/);
  });

  it("can be selected, but /rl start and /rl test refuse them with the reason, before any confirmation or run", async () => {
    const { s, ctx } = setup();
    const selected = await dispatch({ text: "/rl select hard_puzzle" }, ctx);
    expect(selected.ok).toBe(true);
    expect(selected.reply.text).toContain("It cannot be started as it is: the if __name__");
    for (const text of ["/rl start", "/rl test --models t/x"]) {
      const out = await dispatch({ text }, ctx);
      expect(out.needsConfirmation, text).toBeFalsy();
      expect(out.reply.error?.code, text).toBe("NOT_STARTABLE");
      expect(out.reply.text, text).toContain("calls EasyPuzzleEnv.cli(), not HardPuzzleEnv.cli()");
      expect(out.reply.text, text).toContain(
        'Add `if __name__ == "__main__": HardPuzzleEnv.cli()` to two_envs_server.py',
      );
    }
    expect(s.runs.listAll(5)).toEqual([]);
  });

  it("a startable one in the same file is asked to confirm as usual", async () => {
    const { ctx } = setup();
    await dispatch({ text: "/rl select easy_puzzle" }, ctx);
    const out = await dispatch({ text: "/rl start" }, ctx);
    expect(out.reply.error).toBeUndefined();
    expect(out.needsConfirmation).toBe(true);
  });
});
