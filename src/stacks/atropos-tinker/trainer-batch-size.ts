// The batch size an Atropos environment really runs with under tinker-atropos: the trainer's, not its own default.
//
// tinker-atropos's trainer registers `batch_size` (its EnvConfig's, read from the run YAML's env: section, 128 when
// absent) with the trajectory API; atroposlib's BaseEnv.get_server_info() then replaces the environment's own
// batch_size with the registered one (unless it is -1) and raises ValueError when group_size > batch_size.
import type { ImposedValue } from "../../values/config-view-types.ts";

/** tinker-atropos's EnvConfig.batch_size default (tinker_atropos/config.py). */
export const TINKER_ENV_BATCH_SIZE = 128;
/** The demo trainer registers group_size × this when the run YAML gives no positive batch_size. */
export const DEMO_GROUPS_PER_BATCH = 4;
/** The demo trainer's group_size when the run YAML gives none (as tinker-atropos's EnvConfig). */
const TRAINER_GROUP_SIZE = 16;

/**
 * The batch size the trainer registers, from the run YAML's env: section as the bot writes it (a channel's values,
 * then the locked env fields), for the real trainer or the demo stack's.
 */
export function registeredBatchSize(written: Readonly<Record<string, unknown>>, demo: boolean): number {
  const set = written.batch_size;
  if (typeof set === "number" && (!demo || set > 0)) return set;
  if (!demo) return TINKER_ENV_BATCH_SIZE;
  const group = typeof written.group_size === "number" ? written.group_size : TRAINER_GROUP_SIZE;
  return group * DEMO_GROUPS_PER_BATCH;
}

/** The environment fields the trainer decides at run time: batch_size, by field name. */
export function imposedByTrainer(
  written: Readonly<Record<string, unknown>>,
  demo: boolean,
): Record<string, ImposedValue> {
  const batch = registeredBatchSize(written, demo);
  // A registered -1 leaves the environment's own batch_size (which the same YAML gave it).
  if (batch === -1) return {};
  return { batch_size: { value: batch, note: `at run time the trainer's batch_size ${batch} is used` } };
}

/** atroposlib's start-up check (base.py get_server_info): group_size may not exceed the batch size in use. */
export function groupSizeProblem(groupSize: number, batchSize: number, why?: string): string | undefined {
  if (!(groupSize > batchSize)) return undefined;
  return (
    `group_size ${groupSize} is more than the batch size the run will use (${batchSize}${why ? `: ${why}` : ""}), and atroposlib refuses ` +
    `to start on that (ValueError "group_size must be less than batch_size" in BaseEnv.get_server_info). ` +
    `Set batch_size to at least ${groupSize} first (/rl set batch_size ${groupSize}), or a group_size of at most ${batchSize}.`
  );
}
