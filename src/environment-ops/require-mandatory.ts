// A config field the trainer must be given a value for (OmegaConf's `???`: a missing mandatory value) refuses a run
// while it has none, naming each such field and the /rl set that gives it one.
import { RlError } from "../errors.ts";
import type { ConfigView } from "../values/config-view-types.ts";

/** The fields of `config` that must be set and are not (neither changed here nor locked with a value). */
export function unsetMandatory(config: ConfigView, given: readonly string[] = []): string[] {
  return config.configurable_fields
    .filter((f) => f.type === "required" && !f.changed && !given.includes(f.name))
    .map((f) => f.name);
}

/** Refuses a run of `config` while a mandatory field is unset (`given`: fields a sweep sets on every run). */
export function requireMandatorySet(config: ConfigView, given: readonly string[] = []): void {
  const unset = unsetMandatory(config, given);
  if (!unset.length) return;
  const fields = unset.length === 1 ? `field ${unset[0]} has` : `fields ${unset.join(", ")} have`;
  const sets = unset.map((name) => `/rl set ${name} <value>`).join(", then ");
  throw new RlError(
    "NOT_STARTABLE",
    `${config.environment} cannot start: its ${fields} no value (??? in its config: the trainer must be given one). Type ${sets}, then start again.`,
    { details: { environment: config.environment, unset } },
  );
}
