// Autocomplete for /rl options: environment names, config fields with current values, run and sweep ids, command names.
import type { APIApplicationCommandOptionChoice } from "discord.js";
import type { ArgSpec } from "../../commands/arg-specs.ts";
import { formatValue } from "../../src/values/format-value.ts";
import type { AnyCommand } from "../../commands/types.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { Services } from "../../src/services.ts";
import { clip, DISCORD } from "./discord-limits.ts";
import { knownSuggestions } from "./known-suggestions.ts";

export type SuggestionSource = "environment" | "field" | "run" | "command" | "choices";

/** Where an argument's suggestions come from, judged by its name (the registry has no autocomplete hints). */
export function suggestionSource(commandName: string, spec: ArgSpec): SuggestionSource | undefined {
  if (spec.type !== "string") return undefined;
  if (spec.choices) return spec.choices.length > DISCORD.choices ? "choices" : undefined;
  const name = spec.name.toLowerCase();
  if (/^env(ironment)?(_name)?$/.test(name) || (commandName === "select" && name === "name")) return "environment";
  if (/^(field|field_name)$/.test(name)) return "field";
  if (/^(run|run_id)$/.test(name) || (/^(stop|status|logs|metrics|progress)$/.test(commandName) && name === "id"))
    return "run";
  if (commandName === "help" && name === "command") return "command";
  return undefined;
}

export interface SuggestDeps {
  services: Services;
  channel: ChannelKey;
  commands: readonly AnyCommand[];
  runIds?: (channel: ChannelKey) => readonly string[] | Promise<readonly string[]>;
}

interface Candidate {
  value: string;
  label: string;
}

/** Prefix matches first, then substring matches, in the source's own order; at most 25, names within 100. */
function rank(candidates: Candidate[], typed: string): APIApplicationCommandOptionChoice<string>[] {
  const q = typed.trim().toLowerCase();
  const usable = candidates.filter((c) => c.value.length > 0 && c.value.length <= DISCORD.choiceValue);
  const prefix = usable.filter((c) => c.value.toLowerCase().startsWith(q));
  const inner = usable.filter(
    (c) =>
      !c.value.toLowerCase().startsWith(q) && (c.value.toLowerCase().includes(q) || c.label.toLowerCase().includes(q)),
  );
  return [...prefix, ...inner]
    .slice(0, DISCORD.choices)
    .map((c) => ({ name: clip(c.label, DISCORD.choiceName), value: c.value }));
}

async function candidates(source: SuggestionSource, spec: ArgSpec, deps: SuggestDeps): Promise<Candidate[]> {
  switch (source) {
    case "environment": {
      const { environments, selected } = await deps.services.env.listEnvironments(deps.channel);
      return environments.map((e) => ({
        value: e.name,
        label: `${e.name === selected ? "▶ " : ""}${e.name} · ${e.description}`,
      }));
    }
    case "field": {
      const view = await deps.services.env.getConfig(deps.channel);
      return [
        ...view.configurable_fields.map((f) => ({
          value: f.name,
          label: `${f.changed ? "* " : ""}${f.name} = ${formatValue(f.current_value)} (${f.type})`,
        })),
        ...view.locked_fields.map((f) => ({
          value: f.name,
          label: `${f.name} = ${formatValue(f.locked_value)} (locked)`,
        })),
      ];
    }
    case "run": {
      // A sweep id stands wherever a run id does in stop and compare; the channel's newest sweeps come first.
      const sweeps = deps.services.sweeps
        .idsByChannel(deps.channel, 10)
        .map((id) => ({ value: id, label: `${id} (sweep)` }));
      return [
        ...sweeps,
        ...(deps.runIds ? await deps.runIds(deps.channel) : []).map((id) => ({ value: id, label: id })),
      ];
    }
    case "command":
      return deps.commands.map((c) => ({ value: c.name, label: `${c.name} · ${c.summary}` }));
    case "choices":
      return (spec.choices ?? []).map((c) => ({ value: String(c), label: String(c) }));
  }
}

/** The choices to offer at once, from what is known without scanning (for when the scan takes too long). */
export function suggestKnown(
  source: SuggestionSource,
  typed: string,
  deps: Pick<SuggestDeps, "services" | "channel">,
): APIApplicationCommandOptionChoice<string>[] {
  const known = knownSuggestions(source, deps.services, deps.channel) ?? [];
  const redact = deps.services.redact;
  return rank(
    known.map((c) => ({ value: c.value, label: redact(c.label).trim() || c.value })),
    typed,
  );
}

/** The choices to offer for what the person has typed so far; [] when the source has nothing (or fails). */
export async function suggest(
  source: SuggestionSource,
  spec: ArgSpec,
  typed: string,
  deps: SuggestDeps,
): Promise<APIApplicationCommandOptionChoice<string>[]> {
  const redact = deps.services.redact;
  const list = await candidates(source, spec, deps);
  return rank(
    list.map((c) => ({ value: c.value, label: redact(c.label).trim() || c.value })),
    typed,
  );
}
