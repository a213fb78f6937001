// /rl audit [n]: the latest rows of the audit log (state changes and refusals), newest first; admins only.
import { z } from "zod";
import type { AuditRow } from "../db/audit.ts";
import { defineCommand } from "./types.ts";

export const DEFAULT_AUDIT_ROWS = 20;
export const MAX_AUDIT_ROWS = 200;
/** A line per row stays readable; the full detail is in the JSON. */
const DETAIL_IN_TEXT = 120;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** "2025-01-31 14:05:09Z": sortable, unambiguous, short. */
const timeOf = (at: number) => `${new Date(at).toISOString().slice(0, 19).replace("T", " ")}Z`;
const whereOf = (row: AuditRow) => `${row.platform}:${row.channel}`;

function line(row: AuditRow): string {
  const detail = row.detail ? `  ${clip(row.detail.replace(/\s+/g, " "), DETAIL_IN_TEXT)}` : "";
  const who = row.via === "mcp" ? `${row.userId} (agent)` : row.userId;
  return `${timeOf(row.at)}  ${whereOf(row)}  ${who}  ${row.command}  ${row.outcome}${detail}`;
}

export default defineCommand({
  name: "audit",
  summary: "Show the audit log (admins)",
  description: `List the latest audit log rows, newest first: time, platform:channel, user (marked "(agent)" when their own agent acted through rl-chatops mcp), command, outcome (ok, refused, failed) and detail. Every state-changing command and every refusal is there. Default ${DEFAULT_AUDIT_ROWS} rows, at most ${MAX_AUDIT_ROWS}.`,
  args: z.object({
    n: z
      .number()
      .int()
      .min(1)
      .max(MAX_AUDIT_ROWS)
      .optional()
      .describe(`How many rows (default ${DEFAULT_AUDIT_ROWS}, at most ${MAX_AUDIT_ROWS})`),
  }),
  positional: ["n"],
  permission: "admin",
  uses: ["audit"],
  examples: ["/rl audit", "/rl audit 100"],
  async run({ n }, ctx) {
    const rows = ctx.services.audit.latest(n ?? DEFAULT_AUDIT_ROWS);
    const entries = rows.map((r) => ({
      id: r.id,
      time: new Date(r.at).toISOString(),
      platform: r.platform,
      workspace: r.workspace,
      channel: r.channel,
      user: r.userId,
      via: r.via ?? null,
      command: r.command,
      args: r.args,
      outcome: r.outcome,
      detail: r.detail ?? null,
    }));
    return {
      title: `Audit log: latest ${rows.length}`,
      blocks: [{ kind: "code", content: rows.map(line).join("\n") || "(no entries yet)" }],
      delivery: { ephemeral: true },
      data: { entries, count: entries.length },
    };
  },
});
