import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { commandText } from "../../commands/confirmation/button-text.ts";
import { dispatch } from "../../commands/dispatch.ts";
import { parseCommandText } from "../../commands/parse-command-text.ts";
import { COMMANDS } from "../../commands/index.ts";
import { defineCommand, type CommandContext } from "../../commands/types.ts";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { answeredBy, dispatchConfirmed } from "../helpers/confirm.ts";
import { buttonCommand } from "../../src/reply.ts";
import { tempDir } from "../helpers/test-services.ts";
import { personRef } from "../../src/reply.ts";

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

function services(env: Record<string, string> = {}, cwd = tempDir(), now?: () => number): Services {
  const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent", ...env }, cwd), { now });
  opened.push(s);
  return s;
}

const slack = { platform: "slack", workspace: "T1", channel: "C1" };
const ctx = (s: Services, userId: string, via: CommandContext["via"] = "slash"): CommandContext => ({
  channel: slack,
  user: { id: userId },
  via,
  services: s,
});

describe("dispatch", () => {
  it("refuses a command above the person's role, says who may, and audits the refusal", async () => {
    const s = services({ RL_OPERATORS: "slack:U2", RL_ADMINS: "U9" });
    const refused = await dispatch({ text: "/rl select arithmetic" }, ctx(s, "U1"));
    expect(refused.ok).toBe(false);
    expect(refused.reply.error?.code).toBe("FORBIDDEN");
    expect(refused.reply.text).toMatch(/needs the operate permission; you have read/);
    expect(refused.reply.text).toContain(`Ask one of: ${personRef("U9")}, ${personRef("U2")}`);
    const allowed = await dispatch({ text: "/rl select arithmetic" }, ctx(s, "U2"));
    expect(allowed.ok).toBe(true);
    expect(s.audit.latest(5).map((a) => [a.userId, a.outcome])).toEqual([
      ["U2", "ok"],
      ["U1", "refused"],
    ]);
  });

  it("asks to confirm start, and runs nothing until confirmed", async () => {
    const s = services({ RL_DEFAULT_ROLE: "operate" });
    await dispatch({ text: "/rl select arithmetic" }, ctx(s, "U1"));
    await dispatch({ text: "/rl set num_choices 3" }, ctx(s, "U1"));
    const first = await dispatch({ text: "/rl start" }, ctx(s, "U1"));
    expect(first.needsConfirmation).toBe(true);
    expect(first.reply.title).toBe("Start training arithmetic?");
    expect(first.reply.fields?.find((f) => f.label === "Changed fields")?.value).toBe("num_choices = 3");
    // The name the run YAML will carry, as /rl config shows it.
    expect(first.reply.fields?.find((f) => f.label === "WandB run")?.value).toBe("arithmetic-{run id}");
    expect(first.reply.buttons?.map((b) => [b.label, b.kind, buttonCommand(b)])).toEqual([
      ["Confirm", "confirm", "/rl start"],
      ["Cancel", "cancel", ""],
    ]);
    // Both buttons answer one recorded prompt, made for the asker.
    const [confirm, cancel] = first.reply.buttons!;
    expect(answeredBy(confirm)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(answeredBy(cancel)).toBe(answeredBy(confirm));
    expect(s.confirmations.get(answeredBy(confirm)!)).toMatchObject({
      askerId: "U1",
      command: "start",
      commandText: "/rl start",
      args: {},
      state: "pending",
      channel: slack,
    });
    expect(s.runs.listAll(5)).toEqual([]);
  });

  it("turns anything a command throws into a reply, never a throw", async () => {
    const s = services();
    const broken = defineCommand({
      name: "broken",
      summary: "b",
      description: "b",
      args: z.object({}),
      permission: "read",
      uses: [],
      run: async () => {
        throw new TypeError("cannot read x of undefined");
      },
    });
    const result = await dispatch({ text: "/rl broken" }, ctx(s, "U1"), { commands: [...COMMANDS, broken] });
    expect(result.ok).toBe(false);
    expect(result.reply.error?.code).toBe("INTERNAL");
  });

  it("validates arguments given as JSON (the LLM's path) with the usage", async () => {
    const s = services();
    const result = await dispatch({ name: "rl_get_logs", args: { run: "x", lines: 5000 } }, ctx(s, "U1"));
    expect(result.reply.error?.code).toBe("USAGE");
    expect(result.reply.text).toContain("Usage: /rl logs");
  });

  it("limits chat-mode status checks per run for 30 minutes, persisted, but never for a mistyped id", async () => {
    let t = 1_000_000;
    const cwd = tempDir();
    const s = services({}, cwd, () => t);
    s.runs.insert({
      id: "abcd1234",
      channel: slack,
      environment: "arithmetic",
      config: {},
      status: "completed",
      createdBy: "U1",
    });
    const typo = await dispatch({ text: "/rl status abcd9999" }, ctx(s, "U1", "chat"));
    expect(typo.reply.error?.code).toBe("NOT_FOUND");
    expect((await dispatch({ text: "/rl status abcd1234" }, ctx(s, "U1", "chat"))).ok).toBe(true);
    t += 10 * 60_000;
    const again = await dispatch({ text: "/rl status abcd1234" }, ctx(s, "U1", "chat"));
    expect(again.reply.error).toMatchObject({ code: "RATE_LIMITED", details: { next_check_in_seconds: 20 * 60 } });
    // A person's /rl status is never limited.
    expect((await dispatch({ text: "/rl status abcd1234" }, ctx(s, "U1", "slash"))).ok).toBe(true);
    // Nor is the limit forgotten by a restart.
    const restarted = services({}, cwd, () => t);
    expect((await dispatch({ text: "/rl status abcd1234" }, ctx(restarted, "U1", "chat"))).reply.error?.code).toBe(
      "RATE_LIMITED",
    );
    t += 21 * 60_000;
    expect((await dispatch({ text: "/rl status abcd1234" }, ctx(restarted, "U1", "chat"))).ok).toBe(true);
  });

  it("writes a Confirm button's command so that each value comes back as exactly one word, never as more words or flags", () => {
    const stop = COMMANDS.find((c) => c.name === "stop")!;
    const set = COMMANDS.find((c) => c.name === "set")!;
    expect(commandText(stop, { run: "feed0001" })).toBe('/rl stop "feed0001"');
    for (const [command, args] of [
      [stop, { run: 'x" --all "y' }],
      [stop, { run: 'say "quoted" now' }],
      [stop, { run: "it's" }],
      [set, { field: "label", value: "a b\n--c d" }],
      [set, { field: "label", value: "" }],
    ] as const) {
      expect(parseCommandText(commandText(command, args), COMMANDS).args).toEqual(args);
    }
    expect(() => commandText(stop, { run: `both " and '` })).toThrow(/cannot go on a button/);
  });

  it("lets only the starter or an admin stop a run", async () => {
    const s = services({ RL_DEFAULT_ROLE: "operate", RL_ADMINS: "slack:UADMIN" });
    s.runs.insert({
      id: "feed0001",
      channel: slack,
      environment: "arithmetic",
      config: {},
      status: "queued",
      createdBy: "U1",
    });
    const other = await dispatchConfirmed({ text: "/rl stop feed0001" }, ctx(s, "U2"));
    expect(other.reply.error?.code).toBe("FORBIDDEN");
    expect(other.reply.text).toMatch(/started by \uE000U1\uE001/);
    const admin = await dispatchConfirmed({ text: "/rl stop feed0001" }, ctx(s, "UADMIN"));
    expect(admin.ok).toBe(true);
    expect(s.runs.get("feed0001")!.status).toBe("stopped");
  });
});
