// One field's value from what a person typed: the field found by name, refused when locked or holding a secret, parsed into its type.
import type { ConfigField, EnvironmentInfo } from "../environments/types.ts";
import { RlError } from "../errors.ts";
import { BOT_SET_TRAINER_FIELDS, TRAINER_PREFIX } from "../stacks/atropos-tinker/trainer-fields.ts";
import { parseFieldValue } from "../values/parse-field-value.ts";
import { findField } from "./find-field.ts";

export interface FieldInputParserDeps {
  trainerList: () => Promise<ConfigField[]>;
  /** The bot's redactor: a value it would change holds a secret. */
  redact: (text: string) => string;
}

export function createFieldInputParser(deps: FieldInputParserDeps) {
  return async function parseFor(
    env: EnvironmentInfo,
    fieldName: string,
    raw: unknown,
  ): Promise<{ field: ConfigField; value: unknown }> {
    const field = findField(env, await deps.trainerList(), fieldName);
    if (field.locked) {
      const trainerField = field.name.startsWith(TRAINER_PREFIX) ? field.name.slice(TRAINER_PREFIX.length) : undefined;
      const message =
        trainerField && BOT_SET_TRAINER_FIELDS.has(trainerField)
          ? `${field.name} is set by the bot for each run (WandB finds the run by it) and cannot be changed.`
          : `${field.name} is locked to ${JSON.stringify(field.lockedValue)} by the infrastructure settings and cannot be changed.${trainerField ? ` The team can unlock it by removing ${trainerField} from the tinker: section of the locked fields file (RL_LOCKED_FIELDS).` : ""}`;
      throw new RlError("LOCKED_FIELD", message, { details: { field: field.name, locked_value: field.lockedValue } });
    }
    // A key typed as a value would be stored, sent to the environment and shown: refuse it before anything keeps it.
    if (typeof raw === "string" && deps.redact(raw) !== raw) {
      throw new RlError(
        "INVALID_VALUE",
        `That value for ${field.name} holds one of the bot's secrets (an API key or token), so it was not stored. Keys belong in the bot's environment, never in a config field.`,
        {
          details: { field: field.name },
        },
      );
    }
    return { field, value: parseFieldValue(raw, field) };
  };
}
