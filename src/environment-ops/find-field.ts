// Finds the config field a person named: their spelling normalised, the environment's fields first, then the trainer's.
import type { ConfigField, EnvironmentInfo } from "../environments/types.ts";
import { nearestName } from "../environments/resolution/nearest-name.ts";
import { RlError } from "../errors.ts";
import { TRAINER_PREFIX } from "../stacks/atropos-tinker/trainer-fields.ts";
import { quoteInput } from "../values/quote-input.ts";

/** The sections of a run config that only the locked fields file sets (the trainer's `tinker:` has fields of its own). */
const INFRA_SECTIONS = new Set(["openai", "slurm", "testing"]);
/** A field name after normalising: letters (any script, as Python allows), digits and underscores. */
const FIELD_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
/** "section.rest", "section:rest", "section[rest", "section/rest": a nested key. */
const NESTED = /^([\p{L}_][\p{L}\p{N}_]*)[.:[/](.*)$/u;
/** Hyphens and dashes people (and autocorrect) type between words. */
const DASHES = /[\s\-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]+/gu;

/**
 * Map what a person typed ("Group-Size", " env.group_size ", fullwidth letters) to a field name, refusing other
 * sections. NFKC folds compatibility forms onto plain letters, as Python does for identifiers; format characters
 * (zero-width, bidi controls) are invisible and dropped. Lookalikes from other scripts stay what they are, so a
 * Cyrillic "о" never reaches a Latin field: the name is simply unknown.
 */
export function normaliseFieldName(input: string): string {
  const name = input
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .trim()
    .toLowerCase()
    .replace(/\s*([.:[\]/])\s*/g, "$1")
    .replace(DASHES, "_");
  const nested = NESTED.exec(name);
  if (!nested) return name;
  const [, section, rest] = nested;
  if (section === "env") return normaliseFieldName(rest!);
  if (section === "tinker") return `${TRAINER_PREFIX}${normaliseFieldName(rest!)}`;
  if (INFRA_SECTIONS.has(section!)) {
    throw new RlError(
      "LOCKED_FIELD",
      `${quoteInput(input)} belongs to the ${section} section, which is infrastructure set by the locked fields file; only environment fields can be changed.`,
      { details: { section } },
    );
  }
  throw new RlError(
    "NOT_FOUND",
    `${quoteInput(input)} is not a config field: fields are plain names such as group_size (see /rl config); nested keys cannot be set.`,
  );
}

/** Names that can never be a config field: not identifier-shaped, or private/dunder (pydantic ignores those too). */
function isFieldShaped(name: string): boolean {
  return FIELD_NAME.test(name) && !name.startsWith("_");
}

/** A bare name is the environment's field when it has one, else the trainer's of that name ("learning_rate"). */
/** A dotted path as a person typed it ("Trainer . total-epochs"): each part spelled as normaliseFieldName does. */
const dottedName = (input: string) =>
  input
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .trim()
    .toLowerCase()
    .split(/\s*\.\s*/)
    .map((part) => part.replace(DASHES, "_"))
    .join(".");

export function findField(env: EnvironmentInfo, trainer: readonly ConfigField[], input: string): ConfigField {
  // A stack whose config nests (verl's trainer.total_epochs, a chz recipe's parent.child) names fields by dotted path.
  const dotted = dottedName(input);
  const nested = dotted.includes(".") && env.fields.some((f) => f.name.includes("."));
  const name = nested ? dotted : normaliseFieldName(input);
  const bare = name.startsWith(TRAINER_PREFIX) ? name.slice(TRAINER_PREFIX.length) : name;
  const matches = (f: ConfigField, wanted: string) => f.name.normalize("NFKC").toLowerCase() === wanted;
  const field = nested
    ? env.fields.find((f) => matches(f, name))
    : isFieldShaped(bare)
      ? name.startsWith(TRAINER_PREFIX)
        ? trainer.find((f) => matches(f, name))
        : (env.fields.find((f) => matches(f, name)) ?? trainer.find((f) => matches(f, `${TRAINER_PREFIX}${name}`)))
      : undefined;
  if (field) return field;
  const near = nearestName(
    name,
    [...env.fields, ...trainer].map((f) => f.name),
  );
  throw new RlError(
    "NOT_FOUND",
    `${env.name} has no config field ${quoteInput(input)}.${near ? ` Did you mean "${near}"?` : ""} See /rl config for the fields.`,
    { details: { suggestion: near } },
  );
}
