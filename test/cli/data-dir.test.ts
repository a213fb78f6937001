// A data folder the bot could not use (a file, a kernel filesystem, not writable) is refused at start by every command that uses it.
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";
import { spawnTracked } from "../helpers/children.ts";

const ENVS = path.resolve(import.meta.dirname, "../fixtures/envs");

/** The bot (with its stdin closed, so a bot that did start would end), exec and backup. */
const COMMANDS: Array<{ name: string; args: string[] }> = [
  { name: "the bot", args: [] },
  { name: "exec", args: ["exec", "/rl envs"] },
  { name: "backup", args: ["backup"] },
];

type Run = typeof runCli;

/**
 * Root may write anywhere, whatever a folder's mode says: as root, the command runs as the unprivileged user nobody
 * (util-linux's setpriv), for whom the folder is not writable.
 */
const AS_ROOT = process.getuid?.() === 0;
const SETPRIV = "/usr/bin/setpriv";
const runUnprivileged: Run = async (args, options) => {
  if (!AS_ROOT) return runCli(args, options);
  const result = await spawnTracked(
    SETPRIV,
    ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, CLI, ...args],
    {
      cwd: options.cwd,
      env: { RL_LOG_LEVEL: "silent", HOME: options.cwd, ...options.env },
      input: options.input,
      reject: false,
    },
  );
  return { code: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
};

async function expectRefused(cwd: string, dataDir: string, problem: RegExp, run: Run = runCli): Promise<void> {
  for (const { name, args } of COMMANDS) {
    const out = await run(args, { cwd, env: { RL_DATA_DIR: dataDir }, input: "" });
    expect({ name, code: out.code, stdout: out.stdout }).toEqual({ name, code: 1, stdout: "" });
    // One line naming the setting and what to do: no stack trace.
    expect(out.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(out.stderr).toContain(`RL_DATA_DIR is ${dataDir}, `);
    expect(out.stderr).toMatch(problem);
    expect(out.stderr).toContain("Set RL_DATA_DIR");
    expect(out.stderr).not.toMatch(/\n\s+at /);
  }
}

describe("the data folder is checked at start", () => {
  it("refuses a regular file, and a folder under one, creating nothing", async () => {
    const cwd = tempDir();
    const file = path.join(cwd, "afile");
    writeFileSync(file, "");
    await expectRefused(cwd, file, /which is a file, not a folder/);
    await expectRefused(cwd, path.join(file, "data"), new RegExp(`cannot be created: ${file} is a file`));
    expect(readdirSync(cwd)).toEqual(["afile"]);
  });

  it("refuses a folder on a kernel filesystem (proc, sysfs) at once instead of spinning", async () => {
    const cwd = tempDir();
    await expectRefused(cwd, "/proc/rl-chatops-data", /on proc, a kernel filesystem/);
    await expectRefused(cwd, "/sys/rl-chatops/data", /on sysfs, a kernel filesystem/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.skipIf(AS_ROOT && !existsSync(SETPRIV))(
    "refuses a folder that is not writable, or cannot be created",
    async () => {
      const cwd = tempDir();
      // Open to the unprivileged user the commands run as under root; the data folder itself is read and search only.
      chmodSync(cwd, 0o755);
      const locked = path.join(cwd, "locked");
      mkdirSync(locked, { mode: 0o555 });
      chmodSync(locked, 0o555);
      try {
        await expectRefused(cwd, locked, /which is not writable/, runUnprivileged);
        const under = path.join(locked, "data");
        await expectRefused(cwd, under, new RegExp(`cannot be created: ${locked} is not writable`), runUnprivileged);
        expect(readdirSync(locked)).toEqual([]);
      } finally {
        chmodSync(locked, 0o700);
      }
    },
  );

  it("is not checked by scan or --help, which do not use it", async () => {
    const cwd = tempDir();
    const env = { RL_DATA_DIR: "/proc/rl-chatops-data" };
    expect((await runCli(["scan", ENVS, "--json"], { cwd, env })).code).toBe(0);
    expect((await runCli(["--help"], { cwd, env })).code).toBe(0);
  });
});
