// Refuses (or warns about) a group_size the run's batch size cannot hold, as atroposlib would refuse it at start.
import type { ConfigView, FieldView } from "../../values/config-view-types.ts";
import { literalFallback } from "../../values/describe-default.ts";
import type { CombinationVerdict } from "../training-stack.ts";
import { groupSizeProblem } from "./trainer-batch-size.ts";

/** The fields whose change can break the rule. */
const GROUP_SIZE_FIELDS: ReadonlySet<string> = new Set(["group_size", "batch_size"]);

/**
 * Refuses a group_size a run would have (set, locked or a literal default) that is more than the batch size it would
 * use (the trainer's, see run_time); only warns when group_size is the fallback of a default the environment
 * computes, which may turn out otherwise.
 */
export function checkGroupSize(view: ConfigView): CombinationVerdict | undefined {
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
  if (!computed) return { refusal: problem, details: { group_size: groupSize, batch_size: batchSize } };
  return {
    warning: `${problem} (group_size ${groupSize} is the fallback of its default \`${group.default_expr}\`, which the environment may compute otherwise.)`,
  };
}

/** The stack's checkCombination: the config is read only when a change sets group_size or batch_size. */
export async function checkGroupSizeChange(
  changed: readonly string[],
  view: () => Promise<ConfigView>,
): Promise<CombinationVerdict | undefined> {
  return changed.some((name) => GROUP_SIZE_FIELDS.has(name)) ? checkGroupSize(await view()) : undefined;
}
