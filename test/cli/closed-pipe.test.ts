// A one-shot command whose reader stops early (`rl-chatops scan DIR | head -1`) ends quietly with its own exit code.
import { cpSync } from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { writeBigEnvironment } from "../helpers/big-environment.ts";
import { CLI } from "../helpers/run-cli.ts";
import { trackProcess } from "../helpers/children.ts";

describe("a closed output pipe", () => {
  it("ends rl-chatops scan with exit 0 and nothing on stderr when its reader has gone", async () => {
    // Ten copies of a 99-field environment: its JSON is far larger than a pipe holds.
    const { envDir } = writeBigEnvironment();
    for (let i = 0; i < 10; i++) cpSync(path.join(envDir, "big_env.py"), path.join(envDir, `big_${i}_env.py`));
    const child = spawn(process.execPath, [CLI, "scan", envDir, "--json"], {
      cwd: envDir,
      env: { ...process.env, RL_LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    trackProcess(child);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    let first = "";
    // The first chunk read, the read end is closed, as `head -c` does.
    child.stdout.once("data", (chunk: Buffer) => {
      first = chunk.toString();
      child.stdout.destroy();
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once("close", (c, s) => resolve([c, s])),
    );
    expect(first.startsWith("{")).toBe(true);
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: "" });
  });
});
