// Suggestions from what the bot already knows, for while discovery is still scanning: the latest finished scan, else
// this channel's selected environment, the environments of its runs and the fields it has set.
import type { ChannelKey } from "../../db/channel-key.ts";
import type { Services } from "../../src/services.ts";
import { formatValue } from "../../src/values/format-value.ts";

export interface KnownCandidate {
  value: string;
  label: string;
}

const SCANNING = "still scanning the folder";
/** How many of the channel's newest runs lend their environment names. */
const RUNS_LOOKED_AT = 100;

function knownEnvironments(services: Services, channel: ChannelKey): KnownCandidate[] {
  const selected = services.channels.selectedEnvironment(channel);
  const latest = services.catalog.latest();
  if (latest) {
    return latest.environments.map((e) => ({
      value: e.name,
      label: `${e.name === selected ? "▶ " : ""}${e.name} · ${e.description}`,
    }));
  }
  const names = new Set<string>(selected ? [selected] : []);
  for (const run of services.runs.listByChannel(channel, RUNS_LOOKED_AT)) names.add(run.environment);
  return [...names].map((name) => ({
    value: name,
    label: `${name === selected ? "▶ " : ""}${name} · ${name === selected ? "selected here" : "used here"} (${SCANNING})`,
  }));
}

function knownFields(services: Services, channel: ChannelKey): KnownCandidate[] {
  const selected = services.channels.selectedEnvironment(channel);
  if (!selected) return [];
  const values = services.channels.configValues(channel, selected);
  return Object.entries(values).map(([name, value]) => ({
    value: name,
    label: `* ${name} = ${formatValue(value)} (set here; ${SCANNING})`,
  }));
}

/** What can be offered at once, without waiting for a scan; undefined for sources that never wait on one. */
export function knownSuggestions(
  source: string,
  services: Services,
  channel: ChannelKey,
): KnownCandidate[] | undefined {
  if (source === "environment") return knownEnvironments(services, channel);
  if (source === "field") return knownFields(services, channel);
  return undefined;
}
