// The built command loads only what a command uses: every module the process (and its worker threads) loads is
// recorded by a loader hook (test/helpers/record-loaded-modules.mjs), and the heavy packages must be absent.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const RECORDER = fileURLToPath(new URL("../helpers/record-loaded-modules.mjs", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/envs/", import.meta.url));

/** What each heavy dependency looks like among the loaded URLs. */
const HEAVY = {
  bolt: "/node_modules/@slack/bolt/",
  discord: "/node_modules/discord.js/",
  resvg: "/node_modules/@resvg/resvg-js/",
  treeSitter: "/node_modules/tree-sitter/",
  nodeCron: "/node_modules/node-cron/",
  sqlite: "/node_modules/better-sqlite3/",
  // The chat handler and its LLM client are a chunk of their own in dist/.
  chat: "/dist/chunks/create-chat-handler-",
} as const;
type Heavy = keyof typeof HEAVY;

/** The heavy dependencies `rl-chatops ARGS` loaded, once it has exited with `code`. */
async function loadedBy(args: string[], code: number): Promise<Set<Heavy>> {
  const cwd = tempDir();
  const record = path.join(cwd, "loaded.txt");
  const result = await execa(process.execPath, ["--import", RECORDER, CLI, ...args], {
    cwd,
    env: { RL_LOG_LEVEL: "silent", RECORD_LOADED_MODULES: record },
    input: "",
    reject: false,
    timeout: 60_000,
  });
  expect({ code: result.exitCode, stderr: result.stderr }).toEqual({ code, stderr: expect.any(String) });
  const urls = readFileSync(record, "utf8").split("\n");
  // The recorder works: the command's own entry is always among what it loaded.
  expect(urls.some((url) => url.endsWith("/dist/cli.js"))).toBe(true);
  return new Set((Object.keys(HEAVY) as Heavy[]).filter((name) => urls.some((url) => url.includes(HEAVY[name]))));
}

describe("what each command loads", () => {
  it("--help loads none of the heavy packages", async () => {
    expect([...(await loadedBy(["--help"], 0))]).toEqual([]);
  });

  it('exec "/rl status" opens the database, and loads no platform SDK, parser, chart renderer, scheduler or chat', async () => {
    // No runs in the channel yet: it answers so, with exit 1.
    expect([...(await loadedBy(["exec", "/rl status"], 1))]).toEqual(["sqlite"]);
  });

  it("scan loads the parser, and nothing of the bot", async () => {
    expect([...(await loadedBy(["scan", FIXTURES, "--json"], 0))]).toEqual(["treeSitter"]);
  });

  it("the bot with no platform token loads the chat handler and the scheduler, and neither platform SDK", async () => {
    // The console on piped, empty input: it starts, finds the end of its input and stops (exit 0).
    expect([...(await loadedBy([], 0))].sort()).toEqual(["chat", "nodeCron", "sqlite"]);
  });
});
