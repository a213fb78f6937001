// rl-chatops prune --older-than 90d [--dry-run] [--archive DIR]: the files of runs that ended before then deleted (or
// moved into DIR), each named as it goes; the runs stay, noted as pruned. It takes the data folder's lease, so no bot
// resumes a run while its checkpoints go; --dry-run only reads and runs beside a bot.
import { existsSync } from "node:fs";
import { createRunFilesRepo } from "../../db/run-files.ts";
import { openDatabase } from "../../db/open-database.ts";
import type { Config } from "../config.ts";
import { RlError } from "../errors.ts";
import { tryAcquireLease } from "../lease/acquire-lease.ts";
import { describeHolder } from "../lease/lease-holder.ts";
import { pruneRunFiles, type PruneResult } from "../retention/prune-run-files.ts";
import type { CommandLine } from "./parse-command-line.ts";
import { UsageError } from "./parse-command-line.ts";

const UNIT_MS: Record<string, number> = { h: 3600_000, d: 24 * 3600_000, w: 7 * 24 * 3600_000 };

/** "90d", "12w", "36h" in milliseconds. */
export function parseAge(text: string): number {
  const match = /^(\d+)([hdw])$/.exec(text.trim());
  if (!match || Number(match[1]) === 0)
    throw new UsageError(
      `--older-than takes an age such as 90d, 12w or 36h (days, weeks, hours), not "${text}". E.g. rl-chatops prune --older-than 90d --dry-run.`,
    );
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const day = (at: number | undefined) =>
  at === undefined ? "no end recorded" : new Date(at).toISOString().slice(0, 10);

function report(result: PruneResult, before: number): string {
  const verb = result.dryRun ? "Would remove" : result.archiveDir ? "Moved" : "Removed";
  const where = result.archiveDir ? ` into ${result.archiveDir}` : "";
  const files = result.runs.reduce((n, r) => n + r.files.length, 0);
  const lines = [
    `${verb} ${files} files (${mb(result.bytes)})${where} of ${result.runs.length} runs that ended before ${new Date(before).toISOString().slice(0, 10)}:`,
  ];
  for (const run of result.runs) {
    lines.push(`  ${run.id} (${run.status}, ended ${day(run.endedAt)}): ${run.files.length} files, ${mb(run.bytes)}`);
    for (const file of run.files) lines.push(`    ${file.path} (${mb(file.bytes)})`);
  }
  lines.push(
    result.dryRun
      ? "Nothing was changed (--dry-run)."
      : "Their runs stay in the database, each noted with when its files were pruned (and where they were moved).",
  );
  return `${lines.join("\n")}\n`;
}

export function runPrune(line: CommandLine, config: Config): number {
  const age = line.options["older-than"];
  if (age === undefined && config.pruneAfterDays === undefined)
    throw new UsageError(
      "Say how old a run's files must be: rl-chatops prune --older-than 90d (or set RL_PRUNE_AFTER_DAYS). Add --dry-run to list them first.",
    );
  const ageMs = age === undefined ? config.pruneAfterDays! * UNIT_MS.d! : parseAge(age);
  if (!existsSync(config.databasePath))
    throw new RlError("NOT_FOUND", `There is no database at ${config.databasePath} yet: no run to prune.`);
  const dryRun = line.options["dry-run"] === true;
  const attempt = dryRun ? undefined : tryAcquireLease(config.dataDir, "bot");
  if (attempt && !("lease" in attempt))
    throw new RlError(
      "CONFLICT",
      `${describeHolder(attempt.holder)} owns the data folder ${config.dataDir}, and may resume a run whose files would go. Stop it first (rl-chatops stop), then prune; --dry-run lists them meanwhile.`,
    );
  const lease = attempt && "lease" in attempt ? attempt.lease : undefined;
  const db = openDatabase(config.databasePath);
  try {
    const now = Date.now();
    const result = pruneRunFiles(createRunFilesRepo(db), {
      dataDir: config.dataDir,
      cutoff: now - ageMs,
      now,
      dryRun,
      ...(line.options.archive ? { archiveDir: line.options.archive } : {}),
    });
    process.stdout.write(report(result, now - ageMs));
  } finally {
    db.close();
    lease?.release();
  }
  return 0;
}
