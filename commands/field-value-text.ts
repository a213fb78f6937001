// A field's value as /rl config and the start preview say it: the bot's run name, the locked value, a computed
// default's fallback or source (never "none"), and the value the trainer imposes at run time.
import type { FieldView } from "../src/environment-ops.ts";
import { describeDefault } from "../src/values/describe-default.ts";
import { formatValue } from "../src/values/format-value.ts";

function valueText(field: FieldView): string {
  // The name every run is written with, not the class's default (which the bot replaces) nor a placeholder.
  if (field.run_value !== undefined) return `${field.run_value} (set by the bot for each run)`;
  if (field.locked) return formatValue(field.locked_value);
  if (!field.changed) return describeDefault(field.current_value, field.default_expr);
  return formatValue(field.current_value);
}

/** The value, and the one a run uses instead when the trainer imposes another (batch_size). */
export function currentText(field: FieldView): string {
  const text = valueText(field);
  return field.run_time ? `${text} — ${field.run_time.note}` : text;
}
