// Keys of the locked fields file that atroposlib's real config classes do not have: said at start, with their fate.
import { BASE_ENV_CONFIG_FIELDS } from "../../environments/resolution/base-env-config.ts";
import type { LockedFields } from "../../locked-fields.ts";

/** atroposlib's APIServerConfig (with ServerBaseline's fields), as of NousResearch/atropos 296a0bc5. */
export const API_SERVER_CONFIG_FIELDS: readonly string[] = [
  "timeout",
  "num_max_requests_at_once",
  "num_requests_for_eval",
  "model_name",
  "rolling_buffer_length",
  "server_type",
  "tokenizer_name",
  "api_key",
  "base_url",
  "n_kwarg_is_ignored",
  "health_check",
];

/**
 * One sentence per key the real classes would not keep. Both are pydantic models with the default extra="ignore":
 * an unknown key raises nothing, it is dropped, so a locked value the bot shows would have no effect.
 */
export function describeUnknownLockedKeys(locked: LockedFields): string[] {
  const notes: string[] = [];
  locked.openai.forEach((server, index) => {
    for (const key of Object.keys(server)) {
      if (API_SERVER_CONFIG_FIELDS.includes(key)) continue;
      notes.push(
        `The locked fields file sets openai[${index}].${key}, which is not a field of atroposlib's APIServerConfig: ` +
          `it is written to each run YAML under openai:, and the real class (pydantic, extra keys ignored) drops it, ` +
          `so it has no effect. Remove it from the file.`,
      );
    }
  });
  const baseFields = new Set(BASE_ENV_CONFIG_FIELDS.map((f) => f.name));
  for (const key of Object.keys(locked.env)) {
    if (baseFields.has(key)) continue;
    notes.push(
      `The locked fields file sets env.${key}, which is not a field of atroposlib's BaseEnvConfig: it is written ` +
        `to each run YAML under env:, and only an environment whose config class defines ${key} uses it; ` +
        `any other drops it (pydantic, extra keys ignored).`,
    );
  }
  return notes;
}
