// /rl config [filter | field]: the selected environment's fields grouped (changed here, its own, base, locked, trainer), a filtered list, or one field whole.
import { z } from "zod";
import { BASE_ENV_CONFIG_FIELDS } from "../src/environments/resolution/base-env-config.ts";
import type { ConfigField } from "../src/environments/types.ts";
import type { TrainingStack } from "../src/stacks/training-stack.ts";
import type { ConfigView, FieldView } from "../src/environment-ops.ts";
import type { Reply, ReplyField } from "../src/reply.ts";
import { describeDefault, literalFallback } from "../src/values/describe-default.ts";
import { currentText } from "./field-value-text.ts";
import { formatValue } from "../src/values/format-value.ts";
import { defineCommand } from "./types.ts";

/** A description in a list is cut here; the single-field view shows it whole. */
const LIST_DESCRIPTION = 160;
const BASE_ENV_NAMES = new Set(BASE_ENV_CONFIG_FIELDS.map((f) => f.name));

const clipped = (text: string): string =>
  text.length <= LIST_DESCRIPTION ? text : `${text.slice(0, LIST_DESCRIPTION - 1)}…`;

/** One field as a list entry: name and type, then the value (and the default when it differs) and the description. */
function listEntry(f: FieldView, group: string): ReplyField {
  const parts = [
    f.changed ? `${currentText(f)} (default ${describeDefault(f.default, f.default_expr)})` : currentText(f),
  ];
  if (f.description) parts.push(clipped(f.description));
  return { label: `${f.name}${f.changed ? " *" : ""} (${f.type})`, value: parts.join("\n"), group };
}

/**
 * The fields under their headings, in the order people look for them: what changed, what is special here, the rest.
 * trainerPrefix: what the stack's trainer fields are named with, when it has them.
 */
function groupedFields(view: ConfigView, atropos: boolean, trainerPrefix: string | undefined): ReplyField[] {
  const isTrainer = (f: FieldView) => trainerPrefix !== undefined && f.name.startsWith(trainerPrefix);
  // A recipe's fields are all its own; only an Atropos environment has BaseEnvConfig's.
  const baseNames = atropos ? BASE_ENV_NAMES : new Set<string>();
  const changed = view.configurable_fields.filter((f) => f.changed);
  const own = view.configurable_fields.filter((f) => !f.changed && !isTrainer(f) && !baseNames.has(f.name));
  const base = view.configurable_fields.filter((f) => !f.changed && !isTrainer(f) && baseNames.has(f.name));
  const trainer = view.configurable_fields.filter((f) => !f.changed && isTrainer(f));
  return [
    ...changed.map((f) => listEntry(f, "Changed here")),
    ...own.map((f) => listEntry(f, `${view.environment}'s own fields`)),
    ...base.map((f) => listEntry(f, "Base fields (BaseEnvConfig)")),
    ...trainer.map((f) => listEntry(f, "Trainer (tinker:)")),
    ...view.locked_fields.filter((f) => !isTrainer(f)).map((f) => listEntry(f, "Locked (infrastructure)")),
    ...view.locked_fields.filter(isTrainer).map((f) => listEntry(f, "Trainer (locked)")),
  ];
}

function bounds(field: ConfigField | undefined): string | undefined {
  if (!field) return undefined;
  const low = field.min === undefined ? "" : `${field.minExclusive ? ">" : "≥"} ${field.min}`;
  const high = field.max === undefined ? "" : `${field.maxExclusive ? "<" : "≤"} ${field.max}`;
  const shortest = field.minLength === undefined ? "" : `length ≥ ${field.minLength}`;
  const longest = field.maxLength === undefined ? "" : `length ≤ ${field.maxLength}`;
  return [low, high, shortest, longest].filter(Boolean).join(" and ") || undefined;
}

/** The members a value (or each item of a list or set) must be one of. */
function allowed(field: ConfigField | undefined): string | undefined {
  let type = field?.fieldType;
  while (type?.kind === "optional" || type?.kind === "list") type = type.kind === "optional" ? type.inner : type.item;
  return type?.kind === "enum" ? type.values.map((v) => formatValue(v)).join(", ") : undefined;
}

/** Which BaseEnvConfig the base fields are: atroposlib's own source, or the bot's copy; a recipe's stack. */
function baseSource(view: ConfigView, stack: TrainingStack): string {
  if (stack.id !== "atropos-tinker") return `Training stack: ${stack.title} (RL_STACK=${stack.id}).`;
  return view.base_config_source === "bundled"
    ? "Base fields: the bot's bundled copy of atroposlib's BaseEnvConfig (no atroposlib found; set RL_ATROPOSLIB_DIR)."
    : "Base fields: read from atroposlib's envs/base.py (the atroposlib the bot found; RL_ATROPOSLIB_DIR names another).";
}

/** Everything about one field, its description whole. */
function fieldReply(view: ConfigView, f: FieldView, raw: ConfigField | undefined): Reply {
  const fields: ReplyField[] = [
    { label: "Type", value: f.type },
    {
      label: "Default",
      value:
        f.default_expr !== undefined && !literalFallback(f.default_expr)
          ? `\`${f.default_expr}\` (set when the environment starts)`
          : describeDefault(f.default, f.default_expr),
    },
    { label: "Current", value: currentText(f) },
    { label: "Changed here", value: f.changed ? "yes" : "no" },
  ];
  const values = allowed(raw);
  if (values) fields.push({ label: "Allowed values", value: values });
  const range = bounds(raw);
  if (range) fields.push({ label: "Bounds", value: range });
  if (f.locked) fields.push({ label: "Locked", value: "yes, by the infrastructure settings" });
  return {
    title: `${f.name} (${view.environment})`,
    text: f.locked
      ? "This field is locked and cannot be changed here."
      : `Change it with /rl set ${f.name} <value>; undo with /rl reset ${f.name}.`,
    fields,
    ...(f.description ? { blocks: [{ kind: "text" as const, title: "Description", content: f.description }] } : {}),
    data: { environment: view.environment, field: f },
  };
}

export default defineCommand({
  name: "config",
  summary: "Show the selected environment's config",
  description:
    "Show the config of this channel's selected environment: configurable fields (name, type, default, description, current value, whether changed here) and locked infrastructure fields with their locked values. With filter: a field's exact name shows that field whole; other words list the fields whose name or description contains them.",
  toolName: "rl_get_current_config",
  args: z.object({
    filter: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("A field name (shown whole), or words to find in field names and descriptions"),
  }),
  positional: ["filter"],
  restOfLine: true,
  permission: "read",
  personal: true,
  uses: ["catalog", "env", "manager"],
  async run({ filter }, ctx) {
    const view = await ctx.services.env.getConfig(ctx.channel);
    const stack = ctx.services.manager.currentStack;
    const atropos = stack.id === "atropos-tinker";
    const trainerPrefix = stack.trainer?.prefix;
    const all = [...view.configurable_fields, ...view.locked_fields];
    const query = filter?.trim().toLowerCase();
    const exact = query
      ? (all.find((f) => f.name.toLowerCase() === query) ??
        (trainerPrefix !== undefined
          ? all.find((f) => f.name.toLowerCase() === `${trainerPrefix}${query}`)
          : undefined))
      : undefined;
    if (exact) {
      const env = await ctx.services.catalog.get(view.environment).catch(() => undefined);
      const trainer = (await stack.trainer?.fields()) ?? [];
      return fieldReply(
        view,
        exact,
        [...(env?.fields ?? []), ...trainer].find((f) => f.name === exact.name),
      );
    }
    const matches = (f: FieldView): boolean =>
      !query || f.name.toLowerCase().includes(query) || f.description.toLowerCase().includes(query);
    const shown: ConfigView = {
      ...view,
      configurable_fields: view.configurable_fields.filter(matches),
      locked_fields: view.locked_fields.filter(matches),
    };
    const fields = groupedFields(shown, atropos, trainerPrefix);
    const count = shown.configurable_fields.length + shown.locked_fields.length;
    return {
      title: query
        ? `Config of ${view.environment}: ${count} fields matching "${filter?.trim()}"`
        : `Config of ${view.environment}`,
      text:
        query && fields.length === 0
          ? `No field of ${view.environment} has "${filter?.trim()}" in its name or description. See /rl config for all of them.`
          : `${view.configurable_fields.length} configurable, ${view.locked_fields.length} locked. ${baseSource(view, stack)} Fields marked * were changed in this channel. /rl config <field> shows one whole; /rl config <words> finds fields. Change one with /rl set <field> <value>; undo with /rl reset <field>.`,
      ...(fields.length ? { fields } : {}),
      data: query ? shown : view,
    };
  },
});
