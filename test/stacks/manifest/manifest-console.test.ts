// A trainer described by its manifest alone, through the terminal's `exec` as a person scripts it (real processes: the
// command, the background supervisor it starts, the trainer): a run to completion, then a fork of it.
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.ts";
import { tempDir } from "../../helpers/test-services.ts";
import { TOY_ENV } from "../../helpers/toy-trainer.ts";

const folders: string[] = [];
// The supervisor each test's exec started is stopped in order, whatever the test did.
afterEach(async () => {
  for (const cwd of folders.splice(0)) await runCli(["stop"], { cwd, env: { ...TOY_ENV } });
});

describe("a manifest stack through exec", () => {
  it("starts a run that completes, then forks it from a checkpoint", async () => {
    const cwd = tempDir("rl-toy-exec-");
    folders.push(cwd);
    const exec = async (command: string) => {
      const r = await runCli(["exec", command, "--json"], { cwd, env: { ...TOY_ENV } });
      expect(r.code, `${command}: ${r.stderr}`).toBe(0);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };
    await exec("/rl select toy");
    await exec("/rl set iters 4");
    await exec("/rl set pause 0.01");
    await exec("/rl set save_every 2");
    const started = await exec("/rl start");
    const id = started["run_id"] as string;
    let status = await exec(`/rl status ${id}`);
    while (status["status"] !== "completed") {
      expect(["starting", "running"]).toContain(status["status"]);
      status = await exec(`/rl status ${id}`);
    }
    expect(status).toMatchObject({ step: 4, total_steps: 4 });
    const checkpoints = await exec(`/rl checkpoints ${id}`);
    expect(JSON.stringify(checkpoints)).toContain("iter-2");
    const fork = await exec(`/rl fork ${id} iter-2 lr=0.1`);
    expect(fork).toMatchObject({ fork_of: id, checkpoint: "iter-2", fork_step: 2 });
  });
});
