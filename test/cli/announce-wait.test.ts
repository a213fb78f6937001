// exec at a terminal says what a slow command waits for, once, on stderr; a quick one, or a script's, prints no such line.
import { describe, expect, it } from "vitest";
import { announceWait, describeWait } from "../../src/cli/announce-wait.ts";
import { delay } from "../../src/training/wait-until.ts";
import { CLI, runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";
import { spawnTracked } from "../helpers/children.ts";

const config = { stopGraceMs: 10_000, readyTimeoutMs: 180_000 };

describe("what exec waits for", () => {
  it("names a stop's grace period, a start's readiness limit, else the command", () => {
    expect(describeWait("/rl stop ab12", config)).toBe(
      "stopping: waiting for the run's processes to exit (each gets 10 s after SIGTERM, RL_STOP_GRACE_SECONDS, before it is killed)…",
    );
    expect(describeWait("/rl start", config)).toMatch(/^starting: .*up to 180 s each, RL_READY_TIMEOUT_SECONDS/);
    expect(describeWait("/rl results ab12", config)).toBe("waiting for the answer to /rl results ab12…");
  });

  it("writes the line once when the answer is slow, and not at all when it is quick", async () => {
    const written: string[] = [];
    const write = (t: string) => written.push(t);
    expect(
      await announceWait(
        delay(150).then(() => "slow"),
        "stopping…",
        write,
        50,
      ),
    ).toBe("slow");
    expect(written).toEqual(["rl-chatops: stopping…\n"]);
    expect(await announceWait(Promise.resolve("quick"), "never", write, 50)).toBe("quick");
    await delay(100);
    expect(written).toHaveLength(1);
  });

  it("a real /rl start at a terminal (a pty) says what it waits for; piped, its stderr stays empty", async () => {
    const cwd = tempDir();
    // A trainer that takes 3 s to load its model: the start waits well beyond the 1 s after which exec says so. The
    // background supervisor, started by this first exec, passes its environment on to the run.
    const slowTrainer = { DEMO_TRAINER_START_SECONDS: "3" };
    await runCli(["exec", "/rl select arithmetic"], { cwd, env: slowTrainer });
    const atTerminal = (command: string) =>
      spawnTracked("script", ["-qec", `"${process.execPath}" "${CLI}" exec '${command}'`, "/dev/null"], {
        cwd,
        env: { RL_LOG_LEVEL: "silent", ...slowTrainer },
        reject: false,
      });
    const start = await atTerminal("/rl start");
    let stop: Awaited<ReturnType<typeof runCli>> | undefined;
    try {
      expect(start.exitCode).toBe(0);
      expect(start.stdout).toContain(
        "rl-chatops: starting: waiting for each process of the run to be ready (up to 180 s each, RL_READY_TIMEOUT_SECONDS)…",
      );
    } finally {
      // Also when the start is not as expected: a run left going would hold the demo stack's ports for other tests.
      // Its stop is checked after, so a failed start is what the test reports.
      const runs = await runCli(["exec", "/rl runs", "--json"], { cwd });
      const id = (JSON.parse(runs.stdout) as { runs: Array<{ run_id: string }> }).runs[0]?.run_id;
      if (id) stop = await runCli(["exec", `/rl stop ${id}`], { cwd });
    }
    expect({ code: stop?.code, stderr: stop?.stderr }).toEqual({ code: 0, stderr: "" });
  });
});
