// A year of past runs for the history bench row and the query-plan test: runs in many channels by many people, made
// through the runs and processes repositories (the inserts and updates a run's start and end make), into a real
// SQLite file, the newest few still running.
import type { ChannelKey } from "../../db/channel-key.ts";
import type { Db } from "../../db/open-database.ts";
import { createRunProcessesRepo } from "../../db/run-processes.ts";
import { createRunsRepo, type RunStatus } from "../../db/runs.ts";
import { logPathOf } from "../../src/stacks/log-path.ts";

export interface HistoryShape {
  runs: number;
  channels: number;
  /** The newest runs, still running (the digest pass's work). */
  live: number;
  people: number;
}

export const HISTORY_WORKSPACE = "THIST";
const YEAR = 365 * 24 * 3600_000;
const COMPONENTS = ["api", "trainer", "env"];
const ENDINGS: RunStatus[] = ["completed", "completed", "completed", "completed", "failed", "stopped", "completed"];

export const historyChannel = (i: number): ChannelKey => ({
  platform: "slack",
  workspace: HISTORY_WORKSPACE,
  channel: `C${String(i).padStart(5, "0")}`,
});

export const historyPerson = (i: number): string => `U${String(i).padStart(4, "0")}`;

/** Run `i`'s id: eight hex digits, as the bot's own. */
export const historyRunId = (i: number): string => (0x10000000 + i * 2654435761).toString(16).slice(-8);

/** Fills `db` with `shape.runs` runs created evenly over the year before `endAt`, run i in channel i % channels. */
export function fillHistory(db: Db, shape: HistoryShape, endAt: number, logsDir: string): void {
  let clock = endAt - YEAR;
  const runs = createRunsRepo(db, () => clock);
  const processes = createRunProcessesRepo(db);
  const step = YEAR / shape.runs;
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      clock = Math.round(endAt - YEAR + i * step);
      const id = historyRunId(i);
      const live = i >= shape.runs - shape.live;
      runs.insert({
        id,
        channel: historyChannel(i % shape.channels),
        environment: `task_${i % 20}`,
        config: {
          env: { group_size: 8, max_token_length: 2048, total_steps: 1000, seed: i },
          tinker: { lora_rank: 32, learning_rate: 4e-5, model_name: "Qwen/Qwen3-8B" },
        },
        status: "starting",
        createdBy: historyPerson((i * 7) % shape.people),
      });
      const startedAt = clock + 30_000;
      for (const component of COMPONENTS) {
        processes.upsert({
          runId: id,
          component,
          pid: 10_000 + (i % 50_000),
          startTime: String(startedAt),
          logPath: logPathOf(logsDir, id, component),
          state: "ready",
          startedAt,
        });
      }
      if (live) {
        runs.update(id, { status: "running", startedAt, totalSteps: 1000, wandbRunName: `task-${id}` });
        continue;
      }
      const endedAt = startedAt + 2 * 3600_000;
      const status = ENDINGS[i % ENDINGS.length]!;
      for (const component of COMPONENTS)
        processes.markExited(id, component, status === "failed" ? 1 : 0, undefined, endedAt);
      runs.update(id, {
        status,
        startedAt,
        endedAt,
        totalSteps: 1000,
        wandbRunName: `task-${id}`,
        trainedMs: endedAt - startedAt,
        ...(status === "failed" ? { error: "The trainer exited with code 1.", failedComponent: "trainer" } : {}),
        ...(status === "stopped" ? { stoppedBy: historyPerson(i % shape.people) } : {}),
      });
    }
  });
  for (let from = 0; from < shape.runs; from += 5000) batch(from, Math.min(shape.runs, from + 5000));
}
