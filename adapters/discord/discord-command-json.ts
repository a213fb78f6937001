// Builds the one /rl chat-input command (a subcommand per registry command, typed options) and reads its options back.
import { ApplicationCommandOptionType, ApplicationCommandType } from "discord.js";
import type {
  APIApplicationCommandBasicOption,
  APIApplicationCommandSubcommandOption,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from "discord.js";
import { argSpecs, type ArgSpec } from "../../commands/arg-specs.ts";
import type { AnyCommand } from "../../commands/types.ts";
import { suggestionSource } from "./discord-autocomplete.ts";
import { clip, DISCORD } from "./discord-limits.ts";

export const ROOT_COMMAND = "rl";

/** Discord names are lowercase, 1-32 of letters, digits, "-" and "_". */
export function discordName(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^-_\p{L}\p{N}]/gu, "_")
      .slice(0, 32) || "x"
  );
}

/** Required options first (Discord refuses them after optional ones), then the registry's order. */
export function orderedSpecs(command: AnyCommand): ArgSpec[] {
  const specs = argSpecs(command);
  return [...specs.filter((s) => s.required), ...specs.filter((s) => !s.required)].slice(0, DISCORD.options);
}

function optionOf(command: AnyCommand, spec: ArgSpec): APIApplicationCommandBasicOption {
  const base = {
    name: discordName(spec.name),
    description:
      clip(
        spec.type === "array" ? `${spec.description} (comma-separated)` : spec.description,
        DISCORD.optionDescription,
      ) || spec.name,
    required: spec.required,
  };
  const choices = spec.choices && spec.choices.length <= DISCORD.choices ? spec.choices : undefined;
  switch (spec.type) {
    case "integer":
      return { ...base, type: ApplicationCommandOptionType.Integer };
    case "boolean":
      return { ...base, type: ApplicationCommandOptionType.Boolean };
    case "number":
      return choices
        ? {
            ...base,
            type: ApplicationCommandOptionType.Number,
            choices: choices.map((c) => ({ name: clip(String(c), DISCORD.choiceName), value: Number(c) })),
          }
        : { ...base, type: ApplicationCommandOptionType.Number };
    case "string":
    case "array": {
      if (choices) {
        return {
          ...base,
          type: ApplicationCommandOptionType.String,
          choices: choices.map((c) => ({
            name: clip(String(c), DISCORD.choiceName),
            value: clip(String(c), DISCORD.choiceValue),
          })),
        };
      }
      const autocomplete = spec.type === "string" && suggestionSource(command.name, spec) !== undefined;
      return { ...base, type: ApplicationCommandOptionType.String, ...(autocomplete ? { autocomplete: true } : {}) };
    }
  }
}

/**
 * Commands a Discord user gives with buttons rather than the slash list: an approval request carries Approve and Deny
 * buttons that run them, so the list keeps within Discord's 25 subcommands for everything else.
 */
export const BUTTONS_ONLY_ON_DISCORD: ReadonlySet<string> = new Set(["approve", "deny"]);

/** The JSON registered with Discord (PUT .../commands). Commands past Discord's 25 subcommands are left out. */
export function buildRlCommand(commands: readonly AnyCommand[]): RESTPostAPIChatInputApplicationCommandsJSONBody {
  const subcommands: APIApplicationCommandSubcommandOption[] = commands
    .filter((command) => !BUTTONS_ONLY_ON_DISCORD.has(command.name))
    .slice(0, DISCORD.subcommands)
    .map((command) => ({
      type: ApplicationCommandOptionType.Subcommand,
      name: discordName(command.name),
      description: clip(command.summary, DISCORD.optionDescription) || command.name,
      options: orderedSpecs(command).map((spec) => optionOf(command, spec)),
    }));
  return {
    type: ApplicationCommandType.ChatInput,
    name: ROOT_COMMAND,
    description: "Drive RL training runs: environments, config, runs and metrics",
    options: subcommands,
  };
}

/** The registry command a subcommand name stands for. */
export function commandFor(commands: readonly AnyCommand[], subcommand: string): AnyCommand | undefined {
  return commands.find((c) => discordName(c.name) === subcommand);
}

/** The spec behind an option name Discord sends back. */
export function specFor(command: AnyCommand, optionName: string): ArgSpec | undefined {
  return argSpecs(command).find((s) => discordName(s.name) === optionName);
}

/** Raw arguments for dispatch from the subcommand's option values; arrays arrive as comma-separated text. */
export function argsFromOptions(
  command: AnyCommand,
  value: (optionName: string) => string | number | boolean | undefined,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const spec of argSpecs(command)) {
    const v = value(discordName(spec.name));
    if (v === undefined) continue;
    args[spec.name] =
      spec.type === "array" && typeof v === "string"
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : v;
  }
  return args;
}
