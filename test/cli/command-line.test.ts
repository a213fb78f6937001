// The command line refuses what it cannot run as written (an unknown or misspelled option, a flag given a value, an
// option missing its value, a stray argument) with exit code 2 and a line saying what the verb takes, and runs nothing.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const ENVS = path.resolve(import.meta.dirname, "../fixtures/envs");

describe("command line", () => {
  it("refuses a misspelled option instead of running without it", async () => {
    const cwd = tempDir();
    const out = await runCli(["exec", "/rl envs", "--chanel", "C1"], { cwd });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("Unknown option --chanel");
    expect(out.stderr).toContain("--channel VALUE");
    expect(out.stdout).toBe("");
    // Nothing ran: no data folder was made for the command.
    expect(existsSync(path.join(cwd, "data"))).toBe(false);
  });

  it("names an option the verb does not take, even one another verb does", async () => {
    const cwd = tempDir();
    const scan = await runCli(["scan", ENVS, "--channel", "C1"], { cwd });
    expect(scan.code).toBe(2);
    expect(scan.stderr).toMatch(/Unknown option --channel: "scan" takes --help, --json/);
    const bot = await runCli(["--verbose"], { cwd });
    expect(bot.code).toBe(2);
    expect(bot.stderr).toContain("Unknown option --verbose");
    expect(bot.stderr).not.toContain("needs a value");
  });

  it("says an option needs a value, or takes none", async () => {
    const cwd = tempDir();
    const missing = await runCli(["exec", "/rl envs", "--channel"], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--channel needs a value");
    const dashed = await runCli(["exec", "/rl envs", "--channel", "-x"], { cwd });
    expect(dashed.code).toBe(2);
    expect(dashed.stderr).toContain('--channel needs a value; one that starts with "-" is written --channel=-VALUE');
    const flag = await runCli(["scan", ENVS, "--json=yes"], { cwd });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("--json takes no value");
  });

  it("refuses a stray argument and an unknown verb", async () => {
    const cwd = tempDir();
    const stray = await runCli(["exec", "/rl", "envs"], { cwd });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('"exec" takes one argument, got 2');
    const verb = await runCli(["sacn", ENVS], { cwd });
    expect(verb.code).toBe(2);
    expect(verb.stderr).toContain('Unknown command "sacn"');
  });

  it("reads options before or after the verb's argument", async () => {
    const cwd = tempDir();
    const after = await runCli(["scan", ENVS, "--json"], { cwd });
    const before = await runCli(["scan", "--json", ENVS], { cwd });
    expect(after.code).toBe(0);
    expect(before.stdout).toBe(after.stdout);
    expect(JSON.parse(after.stdout)).toBeTruthy();
  });
});
