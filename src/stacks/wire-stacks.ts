// Wiring of the training stacks: each stack the bot knows, the one it starts runs on (a code stack, or one a manifest
// describes), discovery's scanner and the environment catalog over it, and the stack's own rules the environment
// operations show. The one place outside a stack's folder that names a stack.
import { availableParallelism } from "node:os";
import path from "node:path";
import type { Config } from "../config.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import type { LockedFields } from "../locked-fields.ts";
import type { Logger } from "../log.ts";
import { createProcessScanner } from "../environments/discovery-process/process-scanner.ts";
import { atroposlibLookup } from "../environments/resolution/atroposlib-lookup.ts";
import { createEnvironmentCatalog, type EnvironmentCatalog, type Scanner } from "../environments/resolution/catalog.ts";
import type { ConfigValues } from "../../db/channels.ts";
import type { ImposedValue } from "../values/config-view-types.ts";
import { createAtroposStack } from "./atropos-tinker/atropos-stack.ts";
import { describeUnknownLockedKeys } from "./atropos-tinker/check-locked-fields.ts";
import { shownRunNames, writtenEnvValues } from "./atropos-tinker/run-config.ts";
import { imposedByTrainer } from "./atropos-tinker/trainer-batch-size.ts";
import { loadManifest } from "./manifest/load-manifest.ts";
import type { StackManifest } from "./manifest/manifest-schema.ts";
import { createManifestScanner } from "./manifest/manifest-scanner.ts";
import { createManifestStack } from "./manifest/manifest-stack.ts";
import { createCookbookStack } from "./tinker-cookbook/cookbook-stack.ts";
import { createRecipeCatalogScanner } from "./tinker-cookbook/recipe-catalog-scanner.ts";
import type { TrainingStack } from "./training-stack.ts";

export interface StacksNeeds {
  lockedFields: LockedFields;
  log: Logger;
  /** The environment training processes inherit (tests add fault settings). */
  processEnv?: NodeJS.ProcessEnv;
  /** How long a process that shows no evidence of work yet must stay alive to count as started. */
  settleMs: number;
}

export interface WiredStacks extends FeatureSlice<{ catalog: EnvironmentCatalog }> {
  /** The stack new runs start on (RL_STACK). */
  current: TrainingStack;
  /** Every stack the bot knows, for the registry: runs made under another RL_STACK are still watched and read. */
  all: TrainingStack[];
  /** Discovery's scanner, closed when the bot stops. */
  scanner: Scanner & { close(): Promise<void> };
  /** What the current stack adds to the config view: WandB run names it writes, values its trainer imposes. */
  environmentHooks: {
    runNamesOf?: (environment: string) => Record<string, string>;
    imposedOf?: (values: ConfigValues) => Record<string, ImposedValue>;
  };
}

/** Discovery's scanner for the current stack. */
function scannerFor(config: Config, lockedFields: LockedFields, manifest: StackManifest | undefined) {
  if (manifest)
    return createManifestScanner(manifest, { locked: lockedFields.stack, maxFileBytes: config.scanMaxFileBytes });
  // Discovery parses in a process of its own at a lower priority (and, on a machine with cores to spare, in helper
  // threads there), one core left to the bot.
  if (config.stack === "tinker-cookbook")
    return createRecipeCatalogScanner(lockedFields, { maxFileBytes: config.scanMaxFileBytes });
  return createProcessScanner({
    lockedEnv: lockedFields.env,
    recursive: config.scanRecursive,
    maxFileBytes: config.scanMaxFileBytes,
    parseThreads: Math.max(1, availableParallelism() - 1),
    atroposlib: atroposlibLookup(config),
    trainerConfigFile: path.join(config.trainingRoot, "tinker_atropos", "config.py"),
  });
}

export function wireStacks(config: Config, needs: StacksNeeds): WiredStacks {
  const { lockedFields, processEnv, settleMs } = needs;
  // A broken manifest stops the bot here, naming the key and what is accepted.
  const manifest = config.stackManifest ? loadManifest(config.stackManifest) : undefined;
  const atropos = config.stack === "atropos-tinker";
  if (atropos)
    for (const note of describeUnknownLockedKeys(lockedFields)) needs.log.warn(note, { file: config.lockedFieldsPath });
  const scanner = scannerFor(config, lockedFields, manifest);
  const catalog = createEnvironmentCatalog(config.environmentsDir, scanner);
  const atroposStack = createAtroposStack({ config, locked: lockedFields, catalog, processEnv, envSettleMs: settleMs });
  const cookbookStack = createCookbookStack({ config, locked: lockedFields, processEnv, settleMs });
  const manifestStack =
    manifest &&
    createManifestStack({
      manifest,
      manifestFile: config.stackManifest!,
      config,
      catalog,
      locked: lockedFields.stack,
      processEnv,
      settleMs,
    });
  const current = manifestStack ?? (config.stack === "tinker-cookbook" ? cookbookStack : atroposStack);
  return {
    services: { catalog },
    current,
    all: [current, atroposStack, cookbookStack],
    scanner,
    // The trainer's tinker: fields and the group_size rule are atropos-tinker's; other stacks' fields are all their own.
    environmentHooks: atropos
      ? {
          runNamesOf: (environment) => shownRunNames(environment, config.wandb.project),
          imposedOf: (values) => imposedByTrainer(writtenEnvValues(values, lockedFields), config.isDemoStack),
        }
      : {},
    stop: () => scanner.close(),
  };
}
