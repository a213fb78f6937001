// Refuses (or warns about) a group_size the run's batch size cannot hold, as atroposlib would refuse it at start.
import { RlError } from "../errors.ts";
import { groupSizeProblem } from "../stacks/atropos-tinker/trainer-batch-size.ts";
import { literalFallback } from "../values/describe-default.ts";
import type { ConfigView, FieldView } from "./config-view.ts";

/** The fields whose change can break the rule. */
export const GROUP_SIZE_FIELDS: ReadonlySet<string> = new Set(["group_size", "batch_size"]);

/**
 * Throws INVALID_VALUE when the group_size a run would have (set, locked or a literal default) is more than the batch
 * size it would use (the trainer's, see run_time); returns a warning when group_size is only the fallback of a default
 * the environment computes, which may turn out otherwise.
 */
export function checkGroupSize(view: ConfigView): string | undefined {
  const all: FieldView[] = [...view.configurable_fields, ...view.locked_fields];
  const group = all.find((f) => f.name === "group_size");
  const batch = all.find((f) => f.name === "batch_size");
  if (!group || !batch) return undefined;
  const batchSize = batch.run_time?.value ?? batch.current_value;
  const computed = !group.changed && !group.locked && group.default_expr !== undefined;
  const groupSize = computed ? literalFallback(group.default_expr!)?.value : group.current_value;
  if (typeof groupSize !== "number" || typeof batchSize !== "number") return undefined;
  const problem = groupSizeProblem(groupSize, batchSize, batch.run_time?.note);
  if (!problem) return undefined;
  if (!computed)
    throw new RlError("INVALID_VALUE", problem, {
      details: { group_size: groupSize, batch_size: batchSize },
    });
  return `${problem} (group_size ${groupSize} is the fallback of its default \`${group.default_expr}\`, which the environment may compute otherwise.)`;
}
