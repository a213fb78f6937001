import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/open-database.ts";
import { createAuditRepo } from "../../db/audit.ts";
import { SETTING_NAMES } from "../../src/config.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

describe("rl-chatops exec", () => {
  it("persists a channel's selection and config across processes, per channel", async () => {
    const cwd = tempDir();
    expect((await runCli(["exec", "/rl select arithmetic", "--channel", "alpha"], { cwd })).code).toBe(0);
    expect((await runCli(["exec", "/rl set group_size 12", "--channel", "alpha"], { cwd })).code).toBe(0);

    const alpha = await runCli(["exec", "/rl config", "--channel", "alpha", "--json"], { cwd });
    expect(alpha.code).toBe(0);
    const view = JSON.parse(alpha.stdout) as {
      environment: string;
      configurable_fields: Array<{ name: string; current_value: unknown; changed: boolean }>;
    };
    expect(view.environment).toBe("arithmetic");
    expect(view.configurable_fields.find((f) => f.name === "group_size")).toMatchObject({
      current_value: 12,
      changed: true,
    });

    const beta = await runCli(["exec", "/rl config", "--channel", "beta", "--json"], { cwd });
    expect(beta.code).toBe(1);
    expect(JSON.parse(beta.stdout)).toMatchObject({ error: { code: "NO_ENVIRONMENT" } });

    expect(existsSync(path.join(cwd, "data", "rl-chatops.db"))).toBe(true);
    const db = openDatabase(path.join(cwd, "data", "rl-chatops.db"));
    const audit = createAuditRepo(db).latest(10);
    db.close();
    expect(audit.map((a) => [a.command, a.channel, a.outcome])).toEqual([
      ["set", "alpha", "ok"],
      ["select", "alpha", "ok"],
    ]);
  });

  it("exits 1 on a refused command and 2 on a usage error, with the message", async () => {
    const cwd = tempDir();
    await runCli(["exec", "/rl select arithmetic"], { cwd });
    const locked = await runCli(["exec", "/rl set rollout_server_url http://evil:1"], { cwd });
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/locked/);
    const usage = await runCli(["exec", "/rl set group_size"], { cwd });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: /rl set <field> <value...>");
    const unknown = await runCli(["exec", "/rl frobnicate"], { cwd });
    expect(unknown.code).toBe(2);
  });

  it("lists environments in the scan JSON's names", async () => {
    const cwd = tempDir();
    const out = await runCli(["exec", "/rl envs", "--json"], { cwd });
    expect(out.code).toBe(0);
    const data = JSON.parse(out.stdout) as { environments: Array<Record<string, unknown>> };
    expect(data.environments.map((e) => e.name).sort()).toEqual(
      expect.arrayContaining(["arithmetic", "letters", "parity"]),
    );
    expect(Object.keys(data.environments[0]!).sort()).toEqual([
      "class_name",
      "config_class",
      "description",
      "file_path",
      "name",
      "runnable",
    ]);
  });

  it("scan prints what discovery finds, as JSON", async () => {
    const cwd = tempDir();
    const out = await runCli(
      ["scan", path.join(process.cwd(), "examples/demo-stack/tinker_atropos/environments"), "--json"],
      { cwd },
    );
    expect(out.code).toBe(0);
    const data = JSON.parse(out.stdout) as {
      environments: Array<{ name: string; fields: Array<{ name: string; locked: boolean }> }>;
      warnings: unknown[];
    };
    const arithmetic = data.environments.find((e) => e.name === "arithmetic")!;
    expect(arithmetic.fields.find((f) => f.name === "total_steps")?.locked).toBe(true);
    expect(arithmetic.fields.find((f) => f.name === "difficulty")?.locked).toBe(false);
  });

  it("/rl config names only settings that exist (the trainer's WandB project is WANDB_PROJECT)", async () => {
    const cwd = tempDir();
    await runCli(["exec", "/rl select arithmetic"], { cwd });
    const out = await runCli(["exec", "/rl config"], { cwd });
    expect(out.code).toBe(0);
    const named = [...out.stdout.matchAll(/\b(?:RL|WANDB|SLACK|DISCORD|LLM|TINKER|OPENROUTER)_[A-Z_]+\b/g)].map(
      (m) => m[0],
    );
    expect(named).toContain("WANDB_PROJECT");
    expect(named.filter((name) => !(SETTING_NAMES as string[]).includes(name))).toEqual([]);
  });

  it("scan of a folder that is not there fails with one line naming it, with or without --json", async () => {
    const cwd = tempDir();
    for (const args of [
      ["scan", "no-such-folder"],
      ["scan", "no-such-folder", "--json"],
    ]) {
      const out = await runCli(args, { cwd });
      expect({ code: out.code, stdout: out.stdout, stderr: out.stderr }).toEqual({
        code: 1,
        stdout: "",
        stderr: `There is no folder ${path.join(cwd, "no-such-folder")} to scan: give the folder holding the environments.`,
      });
    }
  });

  it("the console runs piped lines in order and exits 0 at the end", async () => {
    const cwd = tempDir();
    const out = await runCli([], { cwd, input: "/rl select parity\n/rl config\nhello there\n" });
    expect(out.code).toBe(0);
    expect(out.stdout.indexOf("Selected parity")).toBeLessThan(out.stdout.indexOf("Config of parity"));
    expect(out.stdout).toMatch(/Plain-language requests are not switched on here/);
  });
});
