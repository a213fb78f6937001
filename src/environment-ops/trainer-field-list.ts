// The trainer's fields shown beside every environment's (the stack's, when it has a trainer of its own), and the scan they came with.
import type { EnvironmentCatalog } from "../environments/resolution/catalog.ts";
import type { ConfigField } from "../environments/types.ts";
import type { TrainerSettings } from "../stacks/training-stack.ts";

export interface TrainerFieldListDeps {
  catalog: EnvironmentCatalog;
  /** The stack's trainer settings (atropos-tinker's `tinker:` section, named tinker.x); none on a stack without. */
  trainer?: TrainerSettings;
}

export function createTrainerFieldList(deps: TrainerFieldListDeps) {
  const { catalog } = deps;
  /** The latest scan's result (what a lookup just used), or a scan when there is none yet. */
  const scanned = async () => catalog.latest() ?? (await catalog.list());
  const trainerList = async (): Promise<ConfigField[]> => (deps.trainer ? await deps.trainer.fields() : []);
  return { scanned, trainerList };
}

export type TrainerFieldList = ReturnType<typeof createTrainerFieldList>;
