// Who started a run, as notices and digests say it: the person, and "through their agent" when their own agent asked
// (rl-chatops mcp), so the team sees in its channel what agents do.
import type { RunRow } from "../../db/runs.ts";
import { personRef } from "../reply.ts";

export function startedBy(run: Pick<RunRow, "createdBy" | "createdVia">): string {
  return run.createdVia === "mcp" ? `${personRef(run.createdBy)} through their agent` : personRef(run.createdBy);
}
