// Registering /rl: one command, a subcommand per registry command, typed options; guild or global; gateway intents.
import { GatewayIntentBits } from "discord.js";
import { describe, expect, it } from "vitest";
import { BUTTONS_ONLY_ON_DISCORD, buildRlCommand } from "../../adapters/discord/discord-command-json.ts";
import { argSpecs } from "../../commands/arg-specs.ts";
import { COMMANDS } from "../../commands/index.ts";
import { validateCommands } from "../fakes/discord-validate.ts";
import { embedsOf, harnessPerTest } from "./harness.ts";
import { TEST_COMMANDS } from "./test-commands.ts";

interface Option {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  autocomplete?: boolean;
  choices?: Array<{ name: string; value: string | number }>;
  options?: Option[];
}

const start = harnessPerTest();

function subcommand(command: Record<string, unknown>, name: string): Option {
  const found = (command["options"] as Option[]).find((o) => o.name === name);
  if (!found) throw new Error(`no subcommand ${name}`);
  return found;
}

describe("registration", () => {
  it("fits every registry command into /rl, within Discord's 25 subcommands", () => {
    const rl = buildRlCommand(COMMANDS);
    expect(validateCommands([rl])).toEqual([]);
    // Approve and deny are the approval request's buttons on Discord; every other command is in the list.
    expect((rl.options ?? []).map((o) => o.name)).toEqual(
      COMMANDS.filter((c) => !BUTTONS_ONLY_ON_DISCORD.has(c.name)).map((c) => c.name),
    );
    expect(COMMANDS.filter((c) => BUTTONS_ONLY_ON_DISCORD.has(c.name)).map((c) => c.name)).toEqual(["approve", "deny"]);
  });

  it("registers one /rl on the guild with a subcommand per registry command and typed options", async () => {
    const h = await start();
    const registered = h.fake.registeredCommands(h.fake.ids.guild);
    expect(registered).toHaveLength(1);
    const rl = registered[0]!;
    expect(rl["name"]).toBe("rl");
    expect(validateCommands(registered)).toEqual([]);
    const subs = rl["options"] as Option[];
    expect(subs.map((s) => s.name)).toEqual(TEST_COMMANDS.map((c) => c.name));
    expect(subs.every((s) => s.type === 1)).toBe(true);
    for (const command of TEST_COMMANDS)
      expect(subcommand(rl, command.name).options ?? []).toHaveLength(argSpecs(command).length);

    const typed = subcommand(rl, "typed").options!;
    // Required options come first, as Discord demands.
    expect(typed.map((o) => [o.name, o.type, o.required])).toEqual([
      ["count", 4, true],
      ["mode", 3, true],
      ["label", 3, false],
      ["ratio", 10, false],
      ["flag", 5, false],
      ["tags", 3, false],
    ]);
    expect(typed.find((o) => o.name === "mode")?.choices).toEqual([
      { name: "fast", value: "fast" },
      { name: "careful", value: "careful" },
    ]);
    expect(typed.find((o) => o.name === "tags")?.description).toContain("comma-separated");

    const autocompleted = subs.flatMap((s) =>
      (s.options ?? []).filter((o) => o.autocomplete).map((o) => `${s.name}.${o.name}`),
    );
    expect(autocompleted).toEqual(
      expect.arrayContaining(["halt.run_id", "help.command", "reset.field", "select.name", "set.field"]),
    );
    expect(autocompleted).not.toContain("typed.label");
    expect(h.fake.registeredCommands("global")).toEqual([]);
  });

  it("registers globally when DISCORD_GUILD_ID is not set", async () => {
    const h = await start({ global: true });
    expect(h.fake.registeredCommands("global").map((c) => c["name"])).toEqual(["rl"]);
    expect(h.fake.registeredCommands(h.fake.ids.guild)).toEqual([]);
    expect(
      h.fake.calls.some((c) => c.method === "PUT" && c.path === `/applications/${h!.fake.ids.application}/commands`),
    ).toBe(true);
  });

  it("identifies with Guilds and GuildMessages only (no privileged MessageContent)", async () => {
    const h = await start();
    const intents = Number(h.fake.identifies[0]?.["intents"]);
    expect(intents & GatewayIntentBits.Guilds).toBeTruthy();
    expect(intents & GatewayIntentBits.GuildMessages).toBeTruthy();
    expect(intents & GatewayIntentBits.MessageContent).toBe(0);
  });

  it("keeps running, and says so in the log, when registration is refused", async () => {
    const h = await start({ beforeStart: (fake) => fake.fault({ method: "PUT", path: /\/commands$/, status: 403 }) });
    expect(h.logs.some((l) => l.level === "error" && l.message === "discord: could not register /rl")).toBe(true);
    expect(h.fake.registeredCommands()).toEqual([]);
    // What an earlier start registered still works.
    h.fake.state.commands.set(h.fake.ids.guild, [
      { id: h.fake.ids.command, name: "rl", options: [{ type: 1, name: "envs", description: "List" }] },
    ]);
    expect(embedsOf(await h.fake.slash("envs").callback())[0]?.["title"]).toBe("Environments (1)");
  });
});
