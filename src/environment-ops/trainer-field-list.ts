// The trainer's fields shown beside every environment's: tinker-atropos's TinkerConfig as the scan read it, or the bundled table.
import type { EnvironmentCatalog } from "../environments/resolution/catalog.ts";
import type { ConfigField } from "../environments/types.ts";
import type { LockedFields } from "../locked-fields.ts";
import { trainerFields } from "../stacks/atropos-tinker/trainer-fields.ts";

export interface TrainerFieldListDeps {
  catalog: EnvironmentCatalog;
  /** The locked fields file: its `tinker:` section locks the trainer's fields (named tinker.x). */
  locked?: LockedFields;
}

export function createTrainerFieldList(deps: TrainerFieldListDeps) {
  const { catalog } = deps;
  /** The latest scan's result (what a lookup just used), or a scan when there is none yet. */
  const scanned = async () => catalog.latest() ?? (await catalog.list());
  const trainerList = async (): Promise<ConfigField[]> =>
    deps.locked ? trainerFields(deps.locked, (await scanned()).trainerFields) : [];
  return { scanned, trainerList };
}

export type TrainerFieldList = ReturnType<typeof createTrainerFieldList>;
