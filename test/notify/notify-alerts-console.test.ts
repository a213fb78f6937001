// Reward alerts asked for with /rl notify fire once per run (above a threshold, a new best for the environment here),
// and on the console a DM or another channel's notice is printed marked with where it would go.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createConsoleAdapter } from "../../adapters/console/console.ts";
import { createNoticesFilePoster } from "../../adapters/console/notices-file.ts";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { createDigestStateRepo } from "../../db/digest-state.ts";
import { CHANNEL_WIDE } from "../../db/notify-settings.ts";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { tempDir } from "../helpers/test-services.ts";
import { runMover } from "./notify-kit.ts";

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

let clock = 10_000_000;
const CONSOLE = { platform: "console", workspace: "local", channel: "console" };

function services(): Services {
  const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent" }, tempDir()), { now: () => clock });
  opened.push(s);
  return s;
}

function writeRewards(s: Services, id: string, rewards: number[]): void {
  const file = s.manager.logPath(id, "trainer");
  mkdirSync(path.dirname(file), { recursive: true });
  const total = 100;
  writeFileSync(
    file,
    rewards.map((r, step) => `Step ${step}/${total}\nReward/mean: ${r}\nStep ${step} complete - Loss: 0.5\n`).join(""),
  );
}

/** /rl <text> typed on the console (the local admin). */
async function type(s: Services, text: string): Promise<string> {
  const ctx: CommandContext = { channel: CONSOLE, user: { id: "local", name: "local" }, via: "console", services: s };
  const { reply } = await dispatch({ text }, ctx);
  return `${reply.title}\n${reply.text ?? ""}`;
}

const alertKeys = (s: Services) =>
  (
    s.db.prepare("SELECT dedupe_key AS k FROM outbox WHERE kind = 'alert' ORDER BY id").all() as Array<{ k: string }>
  ).map((r) => r.k);

describe("reward alerts from /rl notify", () => {
  it("a threshold alert and a new-best alert each fire once per run, however many passes see them", async () => {
    const s = services();
    expect(await type(s, "/rl notify reward above 0.5")).toContain("rises above 0.5");
    expect(await type(s, "/rl notify best on")).toContain("beats every earlier run");
    // An earlier run of the environment here reached 0.55.
    s.runs.insert({
      id: "r-old",
      channel: CONSOLE,
      environment: "arithmetic",
      config: {},
      status: "completed",
      createdBy: "local",
    });
    createDigestStateRepo(s.db).update("r-old", { bestReward: 0.55 });
    s.runs.insert({
      id: "r-new",
      channel: CONSOLE,
      environment: "arithmetic",
      config: {},
      status: "running",
      createdBy: "local",
    });

    writeRewards(s, "r-new", [0.2, 0.4]);
    await s.digests.runNow({ alertsOnly: true });
    expect(alertKeys(s)).toEqual([]);

    writeRewards(s, "r-new", [0.2, 0.4, 0.52]);
    clock += 60_000;
    await s.digests.runNow({ alertsOnly: true });
    expect(alertKeys(s)).toEqual(["alert:above:r-new:0.5"]);

    for (const reward of [0.6, 0.7]) {
      writeRewards(s, "r-new", [0.2, 0.4, 0.52, reward]);
      clock += 60_000;
      await s.digests.runNow({ alertsOnly: true });
    }
    expect(alertKeys(s)).toEqual(["alert:above:r-new:0.5", "alert:best:r-new"]);
    const best = JSON.parse(
      (
        s.db.prepare("SELECT reply_json FROM outbox WHERE dedupe_key = 'alert:best:r-new'").get() as {
          reply_json: string;
        }
      ).reply_json,
    ) as { title: string; text: string };
    expect(best.title).toBe("🏆 New best reward: run r-new (arithmetic)");
    expect(best.text).toBe("New best reward for arithmetic in this channel: 0.6 (the best before was 0.55).");
  });

  it("alerts turned off queue nothing", async () => {
    const s = services();
    await type(s, "/rl notify reward below 0.9");
    await type(s, "/rl notify alerts off");
    s.runs.insert({
      id: "r-q",
      channel: CONSOLE,
      environment: "arithmetic",
      config: {},
      status: "running",
      createdBy: "local",
    });
    writeRewards(s, "r-q", [0.1, 0.2]);
    await s.digests.runNow({ alertsOnly: true });
    expect(alertKeys(s)).toEqual([]);
    expect(s.notify.get(CONSOLE, CHANNEL_WIDE).routes.alerts).toEqual({ to: "off" });
    // Each change is in the audit log, as every setting is.
    const audited = s.audit.latest(10).filter((r) => r.command === "notify");
    expect(audited.map((r) => [r.args, r.outcome])).toEqual([
      [{ what: "alerts", where: "off" }, "ok"],
      [{ what: "reward", where: "below", value: "0.9" }, "ok"],
    ]);
  });
});

describe("routed notices on the console", () => {
  it("prints a DM and a named channel's notice marked with where they would go, on the terminal and in the notices file", async () => {
    const s = services();
    await type(s, "/rl notify failed dm");
    await type(s, "/rl notify completed #results");
    const runs = runMover(s);
    runs.start("r-fail", CONSOLE, "local");
    runs.end("r-fail", "failed");
    runs.start("r-done", CONSOLE, "local");
    runs.end("r-done", "completed");

    const output = new PassThrough();
    let printed = "";
    output.on("data", (b: Buffer) => (printed += b.toString()));
    const terminal = createConsoleAdapter(s, { output, input: new PassThrough() });
    const unregister = s.outboxSender.register("console", (t, r, d) => terminal.post(t, r, d), { threads: false });
    for (let i = 0; i < 3; i++) await s.outboxSender.drain();
    unregister();
    expect(printed).toContain("→ DM to local: ❌ Run failed: r-fail");
    expect(printed).toContain("→ #results: ✅ Run completed: r-done");

    // With no console, the notices file says the same.
    const file = path.join(tempDir(), "notices.log");
    const poster = createNoticesFilePoster(file, s.redact, s.now);
    await poster(
      { channel: { ...CONSOLE, channel: "dm:local" } },
      { title: "❌ Run failed: r-x" },
      { key: "k", route: "dm" },
    );
    expect(readFileSync(file, "utf8")).toContain("console:local:dm:local → DM to local\n");
  });
});
