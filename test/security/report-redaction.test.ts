// A key a failed process printed never leaves the run report: not in /rl results' data (the chat tool's result, which
// goes to the model's provider), nor in /rl logs; every surface gets it masked at the source.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { Services } from "../../src/services.ts";
import { logPathOf } from "../../src/stacks/log-path.ts";
import { testServices } from "../helpers/test-services.ts";

const KEY = "tk-printed-by-the-trainer-0042";
const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

describe("the run report", () => {
  it("masks the bot's keys in a failed process's log tail and in /rl logs, whatever asks", async () => {
    const services = testServices({ TINKER_API_KEY: KEY });
    opened.push(services);
    const channel = { platform: "slack", workspace: "T1", channel: "C1" };
    services.runs.insert({
      id: "dead0001",
      channel,
      environment: "arithmetic",
      config: {},
      status: "failed",
      createdBy: "U1",
    });
    services.runs.update("dead0001", { failedComponent: "trainer", error: "The trainer exited with code 1." });
    const log = logPathOf(services.config.logsDir, "dead0001", "trainer");
    mkdirSync(path.dirname(log), { recursive: true });
    writeFileSync(log, `Connecting with key ${KEY}\nTraceback (most recent call last):\nRuntimeError: boom\n`);

    const view = await services.report.results(services.runs.get("dead0001")!);
    expect(view.failed_log_tail?.join("\n")).toContain("RuntimeError: boom");
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect((await services.report.logs(services.runs.get("dead0001")!, "trainer", 10)).join("\n")).not.toContain(KEY);

    // The chat tool's route: the reply's data is what the model is sent.
    const ctx = { channel, user: { id: "U1" }, via: "chat" as const, services };
    const results = await dispatch({ name: "results", args: { run: "dead0001" } }, ctx);
    expect(results.ok, results.reply.text).toBe(true);
    expect(JSON.stringify(results.reply)).not.toContain(KEY);
    const logs = await dispatch({ name: "logs", args: { run: "dead0001" } }, ctx);
    expect(JSON.stringify(logs.reply)).not.toContain(KEY);
  });
});
