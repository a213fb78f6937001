// exec with no bot running, on real processes: the background supervisor it starts trains runs to their end, is
// shared by racing execs, exits once idle, is stopped by rl-chatops stop, gives the folder up to a bot a person starts,
// keeps Slack and Discord posts for a bot with platforms and writes console notices to the notices file.
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboxRepo } from "../../db/outbox.ts";
import { openDatabase } from "../../db/open-database.ts";
import { loadConfig } from "../../src/config.ts";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { startFakeDiscord, type FakeDiscord, type RecordedCall } from "../fakes/discord-gateway.ts";
import {
  type BotProcess,
  killBots,
  killRunProcesses,
  readDb,
  spawnBot,
  supervisorsIn,
  waitFor,
  waitForBot,
} from "../helpers/bot-process.ts";
import { COOKBOOK_ENV, cookbookLockedFields, RECIPE } from "../helpers/cookbook.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const bots: BotProcess[] = [];
const folders: string[] = [];
let fake: FakeDiscord | undefined;

/** A fresh folder for a test; afterEach makes sure nothing of it is left running. */
function folder(): string {
  const cwd = tempDir("rl-background-");
  folders.push(cwd);
  return cwd;
}

afterEach(async () => {
  await killBots(bots);
  await fake?.close();
  fake = undefined;
  for (const cwd of folders.splice(0)) {
    for (const pid of supervisorsIn(cwd)) process.kill(pid, "SIGKILL");
    try {
      killRunProcesses(path.join(cwd, "data"));
    } catch {
      // No database was made.
    }
  }
});

interface RunRow {
  id: string;
  status: string;
}
const runsOf = (cwd: string, env: Record<string, string>) =>
  readDb(cwd, env, (db) => db.prepare("SELECT id, status FROM runs ORDER BY id").all() as RunRow[]) ?? [];

/** The cookbook miniature, a recipe selected and paced, in a fresh folder. */
async function cookbookFolder(
  env: Record<string, string> = {},
  pace = { steps: 4, stepSeconds: 0.2 },
): Promise<{ cwd: string; env: Record<string, string> }> {
  const cwd = folder();
  const all = { ...COOKBOOK_ENV, RL_LOCKED_FIELDS: cookbookLockedFields(cwd), ...env };
  for (const command of [
    `/rl select ${RECIPE}`,
    `/rl set demo_n_batches ${pace.steps}`,
    `/rl set demo_step_seconds ${pace.stepSeconds}`,
  ]) {
    const out = await runCli(["exec", command], { cwd, env: all });
    expect(out.code, out.stderr).toBe(0);
  }
  return { cwd, env: all };
}

describe("exec with no bot running", () => {
  it("a sweep trains both runs to completion under the background supervisor, which then exits; its notices are kept and printed", async () => {
    const { cwd, env } = await cookbookFolder();
    const dataDir = path.join(cwd, "data");
    const sweep = await runCli(["exec", "/rl sweep learning_rate=1e-5,2e-5"], { cwd, env });
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stderr).toBe("");
    // exec has exited; the supervisor it started holds the folder while the runs are live or queued.
    const holder = readLeaseHolder(dataDir);
    expect(holder?.mode).toBe("background");
    expect(supervisorsIn(cwd)).toEqual([holder!.pid]);

    await waitFor(() => {
      const runs = runsOf(cwd, env);
      return runs.length === 2 && runs.every((r) => r.status === "completed");
    }, "both runs of the sweep to complete");
    // Idle (RL_IDLE_EXIT_MINUTES is 0 here): it lets go of the folder and exits, leaving nothing behind.
    await waitFor(() => supervisorsIn(cwd).length === 0, "the background supervisor to exit once idle");
    expect(readLeaseHolder(dataDir)).toBeUndefined();

    const later = await runCli(["exec", "/rl runs", "--json"], { cwd, env });
    expect(later.code, later.stderr).toBe(0);
    const listed = JSON.parse(later.stdout) as { runs: Array<{ run_id?: string; id?: string; status: string }> };
    expect(listed.runs.map((r) => r.status)).toEqual(["completed", "completed"]);

    // The runs' notices went to the console channel, which no console showed: they are in the notices file.
    const ids = runsOf(cwd, env).map((r) => r.id);
    const shown = await runCli(["notices"], { cwd, env });
    expect(shown.code).toBe(0);
    for (const id of ids) expect(shown.stdout).toContain(`Run completed: ${id}`);
    expect(shown.stdout).toContain("finished, 2 runs compared");
    expect(shown.stdout).toBe(readFileSync(path.join(dataDir, "notices.log"), "utf8").trimEnd());
    await waitFor(() => supervisorsIn(cwd).length === 0, "the supervisor of the last exec to exit");
  });

  it("stays while idle for RL_IDLE_EXIT_MINUTES; rl-chatops stop ends it in order and says so", async () => {
    const cwd = folder();
    const dataDir = path.join(cwd, "data");
    const env = { RL_IDLE_EXIT_MINUTES: "10" };
    expect((await runCli(["exec", "/rl select arithmetic"], { cwd, env })).code).toBe(0);
    const holder = readLeaseHolder(dataDir)!;
    expect(holder.mode).toBe("background");
    await new Promise((r) => setTimeout(r, 2500));
    expect(supervisorsIn(cwd)).toEqual([holder.pid]);
    // A later exec is answered by the same supervisor.
    expect((await runCli(["exec", "/rl config", "--json"], { cwd, env })).code).toBe(0);
    expect(readLeaseHolder(dataDir)?.pid).toBe(holder.pid);

    const stopped = await runCli(["stop"], { cwd, env });
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toBe("");
    expect(stopped.stdout.trim()).toBe(
      `Stopped the background supervisor (pid ${holder.pid}, started ${holder.startedAt}), which owned the data folder ${dataDir}, in order; its runs carry on, and the next bot or exec re-attaches to them.`,
    );
    expect(supervisorsIn(cwd)).toEqual([]);
    expect(readLeaseHolder(dataDir)).toBeUndefined();

    const again = await runCli(["stop"], { cwd, env });
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe(`Nothing to stop: no rl-chatops owns the data folder ${dataDir}.`);
  });

  it("rl-chatops stop ends a bot a person started too", async () => {
    const cwd = folder();
    const dataDir = path.join(cwd, "data");
    const b = spawnBot(cwd);
    bots.push(b);
    const holder = await waitForBot(dataDir, b.pid);
    const stopped = await runCli(["stop"], { cwd });
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain(`Stopped the bot (pid ${b.pid}, started ${holder.startedAt})`);
    expect((await b.ended).code).toBe(0);
  });

  it("20 execs at once are all answered, by one supervisor", async () => {
    const cwd = folder();
    const env = { RL_IDLE_EXIT_MINUTES: "10" };
    const outs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        runCli(["exec", `/rl select arithmetic`, "--channel", `c${i}`], { cwd, env }),
      ),
    );
    expect(outs.map((o) => o.code)).toEqual(Array(20).fill(0));
    expect(outs.filter((o) => o.stdout.includes("Selected arithmetic"))).toHaveLength(20);
    // The racing supervisors that lost the folder exited quietly.
    await waitFor(() => supervisorsIn(cwd).length === 1, "the losers to exit");
    expect(supervisorsIn(cwd)).toEqual([readLeaseHolder(path.join(cwd, "data"))!.pid]);
    expect((await runCli(["stop"], { cwd, env })).code).toBe(0);
    expect(supervisorsIn(cwd)).toEqual([]);
  });

  it("a bot a person starts takes the folder over from the supervisor, and its live run with it; a second bot refuses", async () => {
    const { cwd, env } = await cookbookFolder({ RL_IDLE_EXIT_MINUTES: "10" }, { steps: 400, stepSeconds: 0.2 });
    const dataDir = path.join(cwd, "data");
    const start = await runCli(["exec", "/rl start", "--json"], { cwd, env });
    expect(start.code, start.stderr).toBe(0);
    const runId = (JSON.parse(start.stdout) as { run_id: string }).run_id;
    const supervisor = readLeaseHolder(dataDir)!;
    expect(supervisor.mode).toBe("background");

    // The console is the platform a test can start without tokens.
    const b = spawnBot(cwd, env);
    bots.push(b);
    const holder = await waitForBot(dataDir, b.pid);
    expect(holder.mode).toBe("bot");
    expect(supervisorsIn(cwd)).toEqual([]);
    expect(runsOf(cwd, env).find((r) => r.id === runId)?.status).toBe("running");

    const second = await runCli([], { cwd, env });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`Another rl-chatops (pid ${b.pid}`);

    const status = await runCli(["exec", `/rl status ${runId}`, "--json"], { cwd, env });
    expect(status.code, status.stderr).toBe(0);
    expect(readLeaseHolder(dataDir)?.pid).toBe(b.pid);
    expect((await runCli(["exec", `/rl stop ${runId}`], { cwd, env })).code).toBe(0);
    b.kill("SIGTERM");
    expect((await b.ended).code).toBe(0);
  });

  it("keeps Discord posts in the outbox for a bot with platforms, which sends them once; console notices go to the file", async () => {
    fake = await startFakeDiscord();
    const cwd = folder();
    const env = { DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DISCORD_GUILD_ID: fake.ids.guild };
    const config = loadConfig(env, cwd);
    mkdirSync(config.dataDir, { recursive: true });
    const db = openDatabase(config.databasePath);
    const outbox = createOutboxRepo(db);
    outbox.enqueue(
      {
        dedupeKey: "notice:r-kept:completed",
        target: { channel: { platform: "discord", workspace: fake.ids.guild, channel: fake.ids.channel } },
        kind: "notice",
        reply: { title: "✅ Run completed: r-kept" },
      },
      Date.now(),
    );
    outbox.enqueue(
      {
        dedupeKey: "notice:r-console:completed",
        target: { channel: { platform: "console", workspace: "local", channel: "lab" } },
        kind: "notice",
        reply: { title: "✅ Run completed: r-console" },
      },
      Date.now(),
    );
    db.close();
    const statusOf = (key: string) =>
      readDb(
        cwd,
        env,
        (d) => (d.prepare("SELECT status FROM outbox WHERE dedupe_key = ?").get(key) as { status: string }).status,
      );
    const posts = (): RecordedCall[] =>
      fake!.calls.filter((c) => c.method === "POST" && c.path === `/channels/${fake!.ids.channel}/messages`);

    // The token is set, but the supervisor runs no platform: one Gateway connection per bot token is the bot's.
    expect((await runCli(["exec", "/rl envs"], { cwd, env: { ...env, RL_IDLE_EXIT_MINUTES: "10" } })).code).toBe(0);
    await waitFor(() => statusOf("notice:r-console:completed") === "sent", "the console notice to be written");
    expect(readFileSync(config.noticesPath, "utf8")).toMatch(
      /^--- \S+ console:local:lab\n■ ✅ Run completed: r-console\n$/,
    );
    const printed = await runCli(["notices"], { cwd, env });
    expect(printed.stdout).toContain("Run completed: r-console");
    expect(statusOf("notice:r-kept:completed")).toBe("pending");
    expect(fake.calls).toEqual([]);

    // A bot with Discord takes the folder over and sends the post, once.
    const b = spawnBot(cwd, env);
    bots.push(b);
    await waitFor(() => statusOf("notice:r-kept:completed") === "sent", "the Discord post to be sent");
    expect(supervisorsIn(cwd)).toEqual([]);
    expect(posts()).toHaveLength(1);
    b.kill("SIGTERM");
    expect((await b.ended).code).toBe(0);
    expect(posts()).toHaveLength(1);
  });

  it("notices --follow prints notices as they are added, until interrupted", async () => {
    const cwd = folder();
    const config = loadConfig({}, cwd);
    mkdirSync(config.dataDir, { recursive: true });
    // What is there at the start is printed first: once it is, the follower is following.
    appendFileSync(config.noticesPath, "--- t console:local:console\nzero\n");
    const follower = spawnBot(cwd, {}, { args: ["notices", "--follow"] });
    bots.push(follower);
    await waitFor(() => follower.stdout().includes("zero"), "the notices already there");
    appendFileSync(config.noticesPath, "--- t console:local:console\nfirst\n");
    await waitFor(() => follower.stdout().includes("first"), "the first notice");
    appendFileSync(config.noticesPath, "--- t console:local:console\nsecond\n");
    await waitFor(() => follower.stdout().includes("second"), "the second notice");
    follower.kill("SIGINT");
    await follower.ended;
    expect(follower.stdout()).toBe(
      "--- t console:local:console\nzero\n--- t console:local:console\nfirst\n--- t console:local:console\nsecond\n",
    );
  });
});

describe("the exec client", () => {
  it("Ctrl-C on exec while its start is under way leaves the run to the supervisor, which trains it to the end", async () => {
    const { cwd, env } = await cookbookFolder();
    const client = spawnBot(cwd, env, { args: ["exec", "/rl start"] });
    bots.push(client);
    // The supervisor has the command once the run is recorded; exec is still waiting for its answer.
    await waitFor(() => runsOf(cwd, env).length === 1, "the start to be under way");
    expect(readLeaseHolder(path.join(cwd, "data"))?.mode).toBe("background");
    client.kill("SIGINT");
    await client.ended;
    const [run] = await waitFor(() => {
      const runs = runsOf(cwd, env);
      return runs.length === 1 && runs[0]!.status === "completed" ? runs : undefined;
    }, "the run to complete");
    expect(run?.status).toBe("completed");
    await waitFor(() => supervisorsIn(cwd).length === 0, "the supervisor to exit once idle");
  });
});
