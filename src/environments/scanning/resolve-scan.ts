// A scan's last step: the parsed files resolved across the folder (giving the event loop a turn between steps), and
// the result put together with every warning, sorted by file.
import type { ResolutionInputs, ResolutionMemo } from "../resolution/resolution-memo.ts";
import { resolveEnvironmentsStepwise, type Resolution } from "../resolution/resolve-environments.ts";
import type { SummarizedFile } from "../resolution/resolve-symbols.ts";
import type { ScanResult, ScanWarning } from "../types.ts";
import type { PythonFileEntry } from "./list-python-files.ts";
import type { OutsideClass } from "./outside-config-classes.ts";
import type { CachedOutcome } from "./summary-cache.ts";
import type { MaybeYield } from "./time-slicer.ts";

export interface ScanToResolve {
  files: readonly PythonFileEntry[];
  /** Each file's outcome, by its index in `files`. */
  outcomes: readonly CachedOutcome[];
  listingWarnings: readonly ScanWarning[];
  lockedEnv: Record<string, unknown>;
  /** BaseEnvConfig as atroposlib defines it (`source`), or nothing read: the bundled table. */
  base: OutsideClass & { source?: string };
  trainer: OutsideClass;
  trainerConfigFile: string | undefined;
  /** The last resolution of the same folder: what it found in files that stayed as they were is kept. */
  previous: ResolutionMemo | undefined;
}

export async function resolveScan(
  scan: ScanToResolve,
  maybeYield: MaybeYield,
): Promise<{ result: ScanResult; memo: ResolutionMemo }> {
  const { base, trainer } = scan;
  const summarized: SummarizedFile[] = [];
  const fileWarnings: ScanWarning[] = [];
  scan.files.forEach((entry, index) => {
    const outcome = scan.outcomes[index];
    if (outcome?.kind === "summary")
      summarized.push({ key: entry.key, filePath: entry.filePath, summary: outcome.summary });
    else if (outcome?.kind === "refused") fileWarnings.push({ filePath: entry.filePath, message: outcome.message });
  });
  for (const warning of [base.warning, trainer.warning]) if (warning) fileWarnings.push(warning);
  const { result: resolved, memo } = await resolveInSlices(
    { files: summarized, lockedEnv: scan.lockedEnv, ...(base.fields ? { baseFields: base.fields } : {}) },
    scan.previous,
    maybeYield,
  );
  const warnings = [...scan.listingWarnings, ...fileWarnings, ...resolved.warnings];
  warnings.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
  const result: ScanResult = {
    environments: resolved.environments,
    warnings,
    ...(base.source ? { baseConfigSource: base.source } : {}),
    ...(trainer.fields ? { trainerFields: trainer.fields, trainerConfigSource: scan.trainerConfigFile } : {}),
  };
  return { result, memo };
}

/** The resolution one step at a time, the event loop getting a turn whenever a slice is used up. */
async function resolveInSlices(
  input: ResolutionInputs,
  previous: ResolutionMemo | undefined,
  maybeYield: MaybeYield,
): Promise<Resolution> {
  const steps = resolveEnvironmentsStepwise({ ...input, ...(previous ? { previous } : {}) });
  let step = steps.next();
  while (!step.done) {
    await maybeYield();
    step = steps.next();
  }
  return step.value;
}
