// What the last resolution found file by file, and whether a file's findings still hold: a rescan after a few files
// changed resolves only the files whose resolution looked at one of them.
import type { FileSummary } from "../python/python-file-summary.ts";
import type { EnvironmentInfo, ScanWarning } from "../types.ts";
import type { BaseEnvConfigField } from "./base-env-config.ts";
import type { SummarizedFile } from "./resolve-symbols.ts";

export interface FileResolution {
  filePath: string;
  summary: FileSummary;
  /** Every file its resolution looked at, by key, with the summary it had then; "every": any file could matter. */
  reached: ReadonlyArray<readonly [string, FileSummary]> | "every";
  /** Its environments as resolved, before duplicate names across the folder are settled (never changed after). */
  environments: readonly EnvironmentInfo[];
  warnings: readonly ScanWarning[];
}

export interface ResolutionMemo {
  lockedEnv: Record<string, unknown>;
  baseFields: readonly BaseEnvConfigField[] | undefined;
  /** The summarized files' keys, in order: a file more or less can change what any name means. */
  keys: readonly string[];
  byKey: ReadonlyMap<string, FileResolution>;
}

/** What a resolution is made from. */
export interface ResolutionInputs {
  /** Every successfully summarized file of the folder, sorted by key; "_" files included, as bases. */
  files: readonly SummarizedFile[];
  lockedEnv: Record<string, unknown>;
  /** BaseEnvConfig's fields as read from atroposlib; the bundled table when absent. */
  baseFields?: readonly BaseEnvConfigField[];
}

/** A file's findings from `memo` when they still hold for `input`'s folder; undefined when it must be resolved again. */
export function createMemoReader(
  memo: ResolutionMemo | undefined,
  input: ResolutionInputs,
): (file: SummarizedFile) => FileResolution | undefined {
  if (!memo || memo.lockedEnv !== input.lockedEnv || memo.baseFields !== input.baseFields) return () => undefined;
  if (memo.keys.length !== input.files.length || input.files.some((file, i) => memo.keys[i] !== file.key))
    return () => undefined;
  const summaries = new Map(input.files.map((file) => [file.key, file.summary]));
  return (file) => {
    const found = memo.byKey.get(file.key);
    if (!found || found.summary !== file.summary || found.filePath !== file.filePath || found.reached === "every")
      return undefined;
    return found.reached.every(([key, summary]) => summaries.get(key) === summary) ? found : undefined;
  };
}

/** `reached` as the memo keeps it. */
export function reachedSummaries(
  reached: ReadonlySet<SummarizedFile> | "every",
): ReadonlyArray<readonly [string, FileSummary]> | "every" {
  return reached === "every" ? "every" : [...reached].map((file) => [file.key, file.summary] as const);
}
