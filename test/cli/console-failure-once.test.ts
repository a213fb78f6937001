// The console tells a failed start's reason once: not in a log line, the failure notice and the start's reply each.
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const count = (text: string, piece: string) => text.split(piece).length - 1;

describe("a failed start in the console", () => {
  it.each([
    ["a trainer command that is not installed", "launch-training-not-installed", '"launch-training-not-installed"'],
    ["a trainer that exits at once", "python3 -c raise(SystemExit(3))", "exit"],
  ])("%s: its reason is printed once, the run's headline still says failed", async (_what, trainer, piece) => {
    const cwd = tempDir();
    // The console's own log level (warn), as a person gets it.
    const out = await runCli([], {
      cwd,
      env: { RL_LOG_LEVEL: "", RL_TRAINER_COMMAND: trainer, RL_READY_TIMEOUT_SECONDS: "20" },
      input: "/rl select arithmetic\n/rl start\n",
    });
    expect(out.code).toBe(0);
    const all = `${out.stdout}\n${out.stderr}`;
    const reason = all
      .split("\n")
      .find((line) => line.includes(piece) && !line.startsWith("■") && !line.startsWith("✗"));
    expect(reason, all).toBeDefined();
    expect(count(all, reason!), all).toBe(1);
    expect(out.stdout).toMatch(/✗ ❌ Run \w+ \(arithmetic\): failed/);
  });
});
