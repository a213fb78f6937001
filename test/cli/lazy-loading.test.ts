// The built command loads only what a command uses: every module the process (and its worker threads) loads is
// recorded by a loader hook (test/helpers/record-loaded-modules.mjs), and the heavy packages must be absent.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { waitFor } from "../helpers/bot-process.ts";
import { CLI } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";
import { spawnTracked } from "../helpers/children.ts";

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

const heavyIn = (urls: string[]) =>
  new Set((Object.keys(HEAVY) as Heavy[]).filter((name) => urls.some((url) => url.includes(HEAVY[name]))));

/**
 * The heavy dependencies `rl-chatops ARGS` loaded, once it has exited with `code`: the command's own process, and each
 * other process it started that recorded too (the background supervisor exec starts), once that has exited.
 */
async function loadedByEach(
  args: string[],
  code: number,
): Promise<{ command: Set<Heavy>; others: Set<Heavy>[]; commandUrls: string[] }> {
  const cwd = tempDir();
  const record = path.join(cwd, "loaded.txt");
  const subprocess = spawnTracked(process.execPath, ["--import", RECORDER, CLI, ...args], {
    cwd,
    env: { RL_LOG_LEVEL: "silent", RECORD_LOADED_MODULES: record, RL_IDLE_EXIT_MINUTES: "0" },
    input: "",
    reject: false,
  });
  const result = await subprocess;
  expect({ code: result.exitCode, stderr: result.stderr }).toEqual({ code, stderr: expect.any(String) });
  const byPid = () => {
    const map = new Map<number, string[]>();
    for (const line of readFileSync(record, "utf8").split("\n").filter(Boolean)) {
      const [pid, url] = line.split(" ", 2) as [string, string];
      map.set(Number(pid), [...(map.get(Number(pid)) ?? []), url]);
    }
    return map;
  };
  // The others record what they required when they exit: wait for that.
  const others = [...byPid().keys()].filter((pid) => pid !== subprocess.pid);
  await waitFor(() => others.every((pid) => !existsSync(`/proc/${pid}`)), "the processes it started to exit");
  const urls = byPid();
  // The recorder works: the command's own entry is always among what it loaded.
  expect(urls.get(subprocess.pid!)?.some((url) => url.endsWith("/bin/rl-chatops.js"))).toBe(true);
  return {
    command: heavyIn(urls.get(subprocess.pid!)!),
    others: others.map((pid) => heavyIn(urls.get(pid)!)),
    commandUrls: urls.get(subprocess.pid!)!,
  };
}

/** The heavy dependencies `rl-chatops ARGS` and what it started loaded, once it has exited with `code`. */
async function loadedBy(args: string[], code: number): Promise<Set<Heavy>> {
  const { command, others } = await loadedByEach(args, code);
  return new Set([command, ...others].flatMap((set) => [...set]));
}

describe("what each command loads", () => {
  it("--help loads none of the heavy packages", async () => {
    expect([...(await loadedBy(["--help"], 0))]).toEqual([]);
  });

  it('exec "/rl status" is a client that loads none of them; the background supervisor it starts opens the database and runs the schedules, and loads no platform SDK, parser, chart renderer or chat', async () => {
    // No runs in the channel yet: it answers so, with exit 1.
    const { command, others } = await loadedByEach(["exec", "/rl status"], 1);
    expect([...command]).toEqual([]);
    expect(others.map((set) => [...set].sort())).toEqual([["nodeCron", "sqlite"]]);
  });

  it('exec "/rl status" against a running supervisor loads only the socket client and the printer, one CommonJS file of the build: not the full command, no settings parser (YAML, zod), no child_process or crypto, a few KB', async () => {
    // The first exec starts the supervisor (and reads the settings for it); the second finds it running.
    const cwd = tempDir();
    const env = { RL_LOG_LEVEL: "silent", RL_IDLE_EXIT_MINUTES: "1" };
    await spawnTracked(process.execPath, [CLI, "exec", "/rl status"], { cwd, env, reject: false });
    try {
      const record = path.join(cwd, "loaded.txt");
      const subprocess = spawnTracked(process.execPath, ["--import", RECORDER, CLI, "exec", "/rl status"], {
        cwd,
        env: { ...env, RECORD_LOADED_MODULES: record },
        reject: false,
      });
      const result = await subprocess;
      expect(result.stderr).toContain("No runs in this channel yet");
      const lines = readFileSync(record, "utf8").split("\n");
      // Neither the supervisor's spawn (child_process) nor the long-path socket name (crypto) is needed to ask one.
      const builtins = lines.filter((line) => line.startsWith(`${subprocess.pid} node:`)).map((l) => l.split(" ")[1]);
      expect(builtins).toContain("node:net");
      expect(builtins.filter((b) => b === "node:child_process" || b === "node:crypto")).toEqual([]);
      const files = lines
        .filter((line) => line.startsWith(`${subprocess.pid} file:`))
        .map((line) => fileURLToPath(line.split(" ", 2)[1]!));
      // The entry and the client (dist/exec-command.cjs), and nothing else of the package or its packages: not the
      // full command (dist/cli.js), not a chunk, not the ES modules that load the settings (dist/exec-loaders.js).
      // (The entry is recorded twice under --import: loaded by the ES module loader, then found in require.cache.)
      const own = [...new Set(files.filter((file) => !file.endsWith("record-loaded-modules.mjs")))];
      // bin/check-node.cjs is the Node version check every command runs first.
      expect(own.map((file) => path.relative(path.join(CLI, "..", ".."), file)).sort()).toEqual([
        path.join("bin", "check-node.cjs"),
        path.join("bin", "rl-chatops.js"),
        path.join("dist", "exec-command.cjs"),
      ]);
      const builtBytes = own.reduce((sum, file) => sum + statSync(file).size, 0);
      // The settings parser alone (YAML and zod) is over 500 KB of the build.
      expect(builtBytes).toBeLessThan(60_000);
    } finally {
      await spawnTracked(process.execPath, [CLI, "stop"], { cwd, env, reject: false });
    }
  });

  it("scan loads the parser, and nothing of the bot, and hashes no file (no crypto: it scans once)", async () => {
    const { command, others, commandUrls } = await loadedByEach(["scan", FIXTURES, "--json"], 0);
    expect([...new Set([command, ...others].flatMap((set) => [...set]))]).toEqual(["treeSitter"]);
    expect(commandUrls).toContain("node:worker_threads");
    expect(commandUrls.filter((url) => url === "node:crypto" || url === "node:child_process")).toEqual([]);
  });

  it("the bot with no platform token loads the chat handler and the scheduler, and neither platform SDK", async () => {
    // The console on piped, empty input: it starts, finds the end of its input and stops (exit 0).
    expect([...(await loadedBy([], 0))].sort()).toEqual(["chat", "nodeCron", "sqlite"]);
  });
});
