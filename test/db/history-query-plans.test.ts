// Every statement the history commands run (/rl runs and its later pages, /rl status, /rl compare of 10 runs, the
// budgets' window sums, a digest pass) reaches the runs it needs through an index: none reads the whole runs table,
// so each stays as fast with a year of runs as with a week's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { createBudgetsRepo } from "../../db/budgets.ts";
import { openDatabase } from "../../db/open-database.ts";
import { createRunFilesRepo } from "../../db/run-files.ts";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { fillHistory, historyChannel, historyPerson, historyRunId, type HistoryShape } from "../helpers/run-history.ts";
import { tempDir } from "../helpers/test-services.ts";

const SHAPE: HistoryShape = { runs: 3000, channels: 30, live: 20, people: 12 };
const CHANNEL = historyChannel(7);
const PERSON = historyPerson(3);

let services: Services;
const traced: string[] = [];

beforeAll(() => {
  const cwd = tempDir("rl-history-");
  const config = loadConfig({ RL_LOG_LEVEL: "silent", RL_DEFAULT_ROLE: "operate" }, cwd);
  const db = openDatabase(config.databasePath);
  fillHistory(db, SHAPE, Date.now(), config.logsDir);
  const budgets = createBudgetsRepo(db);
  const set = { setBy: "UADMIN", setAt: Date.now() };
  budgets.set({ scope: { kind: "channel", channel: CHANNEL }, kind: "runs", period: "week", amount: 100, ...set });
  budgets.set({ scope: { kind: "channel", channel: CHANNEL }, kind: "concurrent", period: "day", amount: 9, ...set });
  budgets.set({
    scope: { kind: "person", channel: CHANNEL, userId: PERSON },
    kind: "steps",
    period: "month",
    amount: 1e6,
    ...set,
  });
  db.close();
  services = createServices(config, { traceSql: (sql) => traced.push(sql) });
});
afterAll(() => services?.close());

const context = (): CommandContext => ({ channel: CHANNEL, user: { id: PERSON }, via: "slash", services });

/** The statements `act` ran that read or write the runs table. */
async function runsStatements(act: () => Promise<unknown>): Promise<string[]> {
  traced.length = 0;
  await act();
  return [...new Set(traced.filter((sql) => /\b(FROM|UPDATE|JOIN|INTO)\s+runs\b/i.test(sql)))];
}

/** The lines of a statement's plan that read the runs table from end to end, with no index. */
function fullScans(sql: string): string[] {
  const plan = services.db.prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all();
  return plan.map((row) => row.detail).filter((detail) => /^SCAN runs\b(?! USING)/.test(detail));
}

// The channel's runs are i = 7, 37, 67, ...: ten of them, the channel's newest first.
const channelRun = (k: number) => historyRunId(SHAPE.runs - SHAPE.channels + 7 - k * SHAPE.channels);

const COMMANDS: Array<[string, () => Promise<unknown>]> = [
  ["/rl runs", () => dispatch({ text: "/rl runs" }, context())],
  ["/rl runs --page 4", () => dispatch({ text: "/rl runs --page 4" }, context())],
  ["/rl runs --all --page 90", () => dispatch({ text: "/rl runs --all --page 90" }, context())],
  ["/rl status", () => dispatch({ text: "/rl status" }, context())],
  ["/rl status <id prefix>", () => dispatch({ text: `/rl status ${channelRun(3).slice(0, 6)}` }, context())],
  [
    "/rl compare <10 runs>",
    () => dispatch({ text: `/rl compare ${Array.from({ length: 10 }, (_, k) => channelRun(k)).join(" ")}` }, context()),
  ],
  ["/rl budget", () => dispatch({ text: "/rl budget" }, context())],
  ["a digest pass", () => services.digests.runNow()],
  [
    "rl-chatops prune's runs with files",
    async () => createRunFilesRepo(services.db).endedBefore(Date.now() - 90 * 24 * 3600_000, 10_000),
  ],
];

describe("the history commands' queries on 3,000 runs in 30 channels", () => {
  it.each(COMMANDS)("%s reads the runs table through indexes only", async (_name, act) => {
    const statements = await runsStatements(act);
    expect(statements.length).toBeGreaterThan(0);
    const scans = statements.map((sql) => ({ sql, scans: fullScans(sql) })).filter((s) => s.scans.length > 0);
    expect(scans).toEqual([]);
  });

  it("answers with the runs asked for: the channel's newest first, a later page, the prefix's run, ten compared", async () => {
    const page1 = await dispatch({ text: "/rl runs" }, context());
    expect(page1.reply.title).toBe("Runs: 1–20 of 100 (page 1 of 5)");
    expect(page1.reply.text?.split("\n")[0]).toContain(channelRun(0));
    const page4 = await dispatch({ text: "/rl runs --page 4" }, context());
    expect(page4.reply.text?.split("\n")[0]).toContain(historyRunId(SHAPE.runs - SHAPE.channels * 61 + 7));
    const status = await dispatch({ text: `/rl status ${channelRun(3).slice(0, 6)}` }, context());
    expect(status.reply.title).toContain(channelRun(3));
    const compare = await dispatch(
      { text: `/rl compare ${Array.from({ length: 10 }, (_, k) => channelRun(k)).join(" ")}` },
      context(),
    );
    expect(JSON.stringify(compare.reply)).toContain(channelRun(9));
  });
});
