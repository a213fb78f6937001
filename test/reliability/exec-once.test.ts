// Exactly once through exec, on real processes: the owner of the data folder is SIGKILLed between a request's arrival
// and its answer; the exec client starts the next owner and sends the same request id; the command has one effect, and
// the answer says what it did (the recorded answer, or that the owner died with what it had made).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CrashPoint } from "../../src/process/crash-point.ts";
import { readDb, supervisedFoldersPerTest, waitFor } from "../helpers/bot-process.ts";
import { COOKBOOK_ENV, cookbookLockedFields, RECIPE } from "../helpers/cookbook.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const folders = supervisedFoldersPerTest();

type Kind = "start" | "fork" | "resume" | "sweep" | "stop";

interface Run {
  id: string;
  status: string;
  attempt: number;
  sweep_id: string | null;
  request_id: string | null;
}

interface Folder {
  cwd: string;
  env: Record<string, string>;
  runs(): Run[];
  audits(command: string): number;
  exec(text: string, env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }>;
}

function cookbookFolder(): Folder {
  const cwd = tempDir("rl-exec-once-");
  folders.push(cwd);
  const env = { ...COOKBOOK_ENV, RL_LOCKED_FIELDS: cookbookLockedFields(cwd), RL_IDLE_EXIT_MINUTES: "10" };
  return {
    cwd,
    env,
    runs: () =>
      readDb(cwd, env, (db) => db.prepare("SELECT * FROM runs ORDER BY created_at, rowid").all() as Run[]) ?? [],
    audits: (command) =>
      readDb(
        cwd,
        env,
        (db) => (db.prepare("SELECT COUNT(*) AS n FROM audit WHERE command = ?").get(command) as { n: number }).n,
      ) ?? 0,
    exec: async (text, more = {}) => {
      const out = await runCli(["exec", text, "--json"], { cwd, env: { ...env, ...more } });
      return { code: out.code ?? -1, stdout: out.stdout, stderr: out.stderr };
    },
  };
}

async function ok(f: Folder, text: string): Promise<string> {
  const out = await f.exec(text);
  expect(out.code, `${text}: ${out.stdout} ${out.stderr}`).toBe(0);
  return out.stdout;
}

const checkpointsOf = (f: Folder, id: string) => {
  const file = path.join(f.cwd, "data", "runs", id, "checkpoints.jsonl");
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).length : 0;
};

/** A folder ready for `kind`, its supervisor stopped (the next one starts with the crash point set): the command. */
async function prepare(f: Folder, kind: Kind): Promise<string> {
  const steps = kind === "fork" ? 4 : kind === "start" || kind === "sweep" ? 3 : 200;
  for (const line of [
    `/rl select ${RECIPE}`,
    `/rl set demo_n_batches ${steps}`,
    "/rl set save_every 2",
    `/rl set demo_step_seconds ${kind === "fork" ? 0.05 : 0.2}`,
  ])
    await ok(f, line);
  let command = kind === "sweep" ? "/rl sweep learning_rate=1e-5,2e-5" : "/rl start";
  if (kind !== "start" && kind !== "sweep") {
    await ok(f, "/rl start");
    const { id } = f.runs()[0]!;
    await waitFor(() => checkpointsOf(f, id) >= 1, "a checkpoint of the first run");
    if (kind === "fork") {
      await waitFor(() => f.runs()[0]!.status === "completed", "the first run to complete");
      command = `/rl fork ${id}`;
    } else if (kind === "resume") {
      await ok(f, `/rl stop ${id}`);
      command = `/rl resume ${id}`;
    } else command = `/rl stop ${id}`;
  }
  const stopped = await runCli(["stop"], { cwd: f.cwd, env: f.env });
  expect(stopped.code, stopped.stderr).toBe(0);
  return command;
}

/**
 * Each command with points between its arrival and its answer, and the runs it has made by then: none at
 * request:taken (nothing ran), nor at a sweep's run-created (its runs are created in one transaction, not committed yet).
 */
const CASES: Array<[Kind, CrashPoint, number]> = [
  ["start", "request:taken", 0],
  ["start", "run-created", 1],
  ["start", "committed:running", 1],
  ["start", "request:answered", 1],
  ["fork", "run-created", 1],
  ["fork", "request:answered", 1],
  ["resume", "request:taken", 0],
  ["resume", "resume:committed", 0],
  ["resume", "request:answered", 0],
  ["sweep", "run-created", 0],
  ["sweep", "request:answered", 2],
  ["stop", "committed:stopping", 0],
  ["stop", "request:answered", 0],
];

/** The runs the command made, the audit rows it left, and how many times it acted on the run it names. */
function effects(f: Folder, kind: Kind, before: Run[]) {
  const made = f.runs().filter((r) => !before.some((b) => b.id === r.id));
  const target = before[0] && f.runs().find((r) => r.id === before[0]!.id);
  return {
    made,
    audits: f.audits(kind),
    resumes: kind === "resume" ? (target?.attempt ?? 0) : 0,
    sweeps: new Set(made.map((r) => r.sweep_id)).size,
  };
}

describe("exactly once through exec", () => {
  it.each(CASES)(
    "%s, owner SIGKILLed at %s: the retried request has one effect and says what it did",
    async (kind, point, made) => {
      const f = cookbookFolder();
      const command = await prepare(f, kind);
      const before = f.runs();
      const marker = path.join(f.cwd, "crashed");
      const out = await f.exec(command, { RL_CRASH_AT: point, RL_CRASH_ONCE: marker });
      // The owner did die there: the exec client was answered by the next one.
      expect(existsSync(marker), `the owner reached ${point}`).toBe(true);
      const answer = JSON.parse(out.stdout) as {
        error?: { code: string; message: string; details?: { runs?: string[] } };
      };
      const found = effects(f, kind, before);
      const ranAtAll = point !== "request:taken";
      if (point === "request:answered") {
        // The answer was recorded before the kill: the retry hears it, as if nothing had happened.
        expect(out.code, out.stdout).toBe(0);
        expect(answer.error).toBeUndefined();
      } else {
        expect(out.code).toBe(1);
        expect(answer.error?.code).toBe("INTERRUPTED");
        expect(answer.error?.message).toContain("it was not run again");
        expect(answer.error?.details?.runs).toEqual(found.made.map((r) => r.id));
      }
      expect(found.made).toHaveLength(made);
      if (kind === "sweep" && made) expect(found.sweeps).toBe(1);
      if (kind === "resume") expect(found.resumes).toBe(ranAtAll ? 1 : 0);
      if (kind === "stop" && ranAtAll)
        await waitFor(() => f.runs()[0]!.status === "stopped", "the run to end stopped, once");
      // An audit row is written when the command finishes: once, or never when its owner died first.
      expect(found.audits).toBe(point === "request:answered" ? 1 : 0);
      for (const r of found.made) expect(r.request_id).toMatch(/^[0-9a-f-]{36}$/);
    },
    240_000,
  );
});
