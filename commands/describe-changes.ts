// How a rerun's or fork's changes read in its prompt: "learning_rate: 0.00001 → 0.00002, seed: 0 → 3".
import type { AppliedChanges } from "../src/environment-ops.ts";
import { describeDefault } from "../src/values/describe-default.ts";
import { formatValue } from "../src/values/format-value.ts";

export function describeChanges(changes: AppliedChanges["changes"]): string {
  return (
    changes.map((c) => `${c.field}: ${describeDefault(c.from, c.from_expr)} → ${formatValue(c.to)}`).join(", ") ||
    "none (the same config)"
  );
}
