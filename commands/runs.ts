// /rl runs [--all] [--limit N] [--page P]: this channel's runs (or every channel's), newest first, a page at a time.
import { z } from "zod";
import type { RunRow } from "../db/runs.ts";
import { personRef } from "../src/reply.ts";
import { statusLine } from "./run-reply.ts";
import { defineCommand } from "./types.ts";

/** " · fork of 1a2b3c4d at step 20", " · resumed 2x": how the run came about, when not a plain start. */
function lineageOf(run: RunRow): string {
  const fork = run.parentId
    ? ` · fork of ${run.parentId}${run.forkStep === undefined ? "" : ` at step ${run.forkStep}`}`
    : "";
  const resumed = run.attempt > 0 ? ` · resumed${run.attempt > 1 ? ` ${run.attempt}x` : ""}` : "";
  return fork + resumed;
}

/** The most runs one page lists; past it the list still reaches every run, through its pages. */
export const MAX_RUNS_PER_PAGE = 500;
const RANGE = `must be between 1 and ${MAX_RUNS_PER_PAGE}`;

/** The command that shows page `page` of the same listing, for the Newer and Older buttons. */
function pageCommand(page: number, all: boolean | undefined, limit: number | undefined): string {
  return `/rl runs${all ? " --all" : ""}${limit === undefined ? "" : ` --limit ${limit}`} --page ${page}`;
}

export default defineCommand({
  name: "runs",
  summary: "List training runs",
  description:
    "List training runs, newest first: this channel's, or every channel's with all=true, `limit` per page (default 20) from page `page` (default 1); total says how many there are in all. Each has run id, environment, status, who started it and when, and the run it was forked from or how often it was resumed.",
  toolName: "rl_list_runs",
  args: z.object({
    all: z.boolean().optional().describe("Every channel's runs, not just this one's"),
    limit: z
      .number()
      .int(RANGE)
      .min(1, RANGE)
      .max(MAX_RUNS_PER_PAGE, RANGE)
      .optional()
      .describe(`How many per page, 1 to ${MAX_RUNS_PER_PAGE} (default 20)`),
    page: z.number().int().min(1).optional().describe("Which page, 1 the newest (default 1)"),
  }),
  permission: "read",
  personal: true,
  uses: ["report"],
  async run({ all, limit, page }, ctx) {
    const where = all ? undefined : ctx.channel;
    const size = limit ?? 20;
    const total = ctx.services.report.count(where);
    const pages = Math.max(1, Math.ceil(total / size));
    // A page past the end (the list shrank, or a typo) shows the oldest page rather than nothing.
    const shown = Math.min(page ?? 1, pages);
    const offset = (shown - 1) * size;
    const rows = ctx.services.report.list(where, size, offset);
    const runs = rows.map((r) => ({
      run_id: r.id,
      environment: r.environment,
      status: r.status,
      created_by: r.createdBy,
      created_at: new Date(r.createdAt).toISOString(),
      wandb_run_name: r.wandbRunName,
      ...(r.parentId ? { forked_from: { run_id: r.parentId, step: r.forkStep } } : {}),
      ...(r.attempt > 0 ? { resumed: r.attempt } : {}),
    }));
    const range = rows.length ? `${offset + 1}–${offset + rows.length} of ${total}` : `${total}`;
    return {
      title: `Runs${all ? " (all channels)" : ""}: ${range}${pages > 1 ? ` (page ${shown} of ${pages})` : ""}`,
      text:
        rows
          .map(
            (r) =>
              `${statusLine(r)} · ${personRef(r.createdBy)} · ${new Date(r.createdAt).toISOString().slice(0, 16).replace("T", " ")}${lineageOf(r)}`,
          )
          .join("\n") || "No runs yet. Start one with /rl start.",
      ...(pages > 1
        ? {
            buttons: [
              ...(shown > 1
                ? [{ kind: "command" as const, label: "◀ Newer", command: pageCommand(shown - 1, all, limit) }]
                : []),
              ...(shown < pages
                ? [{ kind: "command" as const, label: "Older ▶", command: pageCommand(shown + 1, all, limit) }]
                : []),
            ],
          }
        : {}),
      data: { runs, count: runs.length, total, page: shown, pages },
    };
  },
});
