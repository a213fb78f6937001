// Autocomplete (type 4 -> callback type 8): environment names, config fields with values, run ids, policy.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ChannelKey } from "../../db/channel-key.ts";
import { BOB } from "../fakes/discord-gateway.ts";
import { validateChoices } from "../fakes/discord-validate.ts";
import { tempDir } from "../helpers/test-services.ts";
import { bodyOf, harnessPerTest, type Harness } from "./harness.ts";

type Choice = { name: string; value: string };

const start = harnessPerTest();

function choicesOf(call: Awaited<ReturnType<Harness["fake"]["waitForCall"]>>): Choice[] {
  const body = bodyOf(call);
  expect(body["type"]).toBe(8);
  const choices = (body["data"] as { choices: Choice[] }).choices;
  expect(validateChoices(choices)).toEqual([]);
  return choices;
}

describe("autocomplete", () => {
  it("suggests environment names from discovery", async () => {
    const h = await start();
    const choices = choicesOf(await h.fake.autocomplete("select", { name: "fo" }, "name").callback());
    expect(choices).toEqual([{ name: "foo · Environment from foo_env.py", value: "foo" }]);
    expect(choicesOf(await h.fake.autocomplete("select", { name: "zzz" }, "name").callback())).toEqual([]);
  });

  it("suggests config fields, configurable first with current values, locked after", async () => {
    const h = await start();
    await h.services.env.selectEnvironment(h.channel, "foo");
    await h.services.env.editConfig(h.channel, "temperature", "0.9");
    const choices = choicesOf(await h.fake.autocomplete("set", { field: "" }, "field").callback());
    expect(choices.length).toBeLessThanOrEqual(25);
    expect(choices[0]).toEqual({ name: "group_size = 4 (int)", value: "group_size" });
    const temperature = choicesOf(await h.fake.autocomplete("set", { field: "temp" }, "field").callback());
    expect(temperature[0]).toEqual({ name: "* temperature = 0.9 (float)", value: "temperature" });
    const locked = choicesOf(await h.fake.autocomplete("reset", { field: "total_st" }, "field").callback());
    expect(locked[0]).toEqual({ name: "total_steps = 2500 (locked)", value: "total_steps" });
  });

  it("offers nothing for fields when no environment is selected", async () => {
    const h = await start();
    expect(choicesOf(await h.fake.autocomplete("set", { field: "g" }, "field").callback())).toEqual([]);
  });

  it("suggests this channel's run ids from the runIds hook, newest first, at most 25", async () => {
    const asked: ChannelKey[] = [];
    const ids = Array.from({ length: 40 }, (_, i) => `run-${String(40 - i).padStart(2, "0")}`);
    const h = await start({
      adapter: {
        runIds: (channel) => {
          asked.push(channel);
          return ids;
        },
      },
    });
    const all = choicesOf(await h.fake.autocomplete("halt", { run_id: "" }, "run_id").callback());
    expect(all.map((c) => c.value)).toEqual(ids.slice(0, 25));
    expect(asked[0]).toEqual(h.channel);
    const some = choicesOf(await h.fake.autocomplete("halt", { run_id: "run-0" }, "run_id").callback());
    expect(some.map((c) => c.value)).toEqual([
      "run-09",
      "run-08",
      "run-07",
      "run-06",
      "run-05",
      "run-04",
      "run-03",
      "run-02",
      "run-01",
    ]);
  });

  it("suggests this channel's sweep ids before its run ids, marked as sweeps", async () => {
    const h = await start({ adapter: { runIds: () => ["feed0001"] } });
    h.services.sweeps.insert({
      id: "s0000001",
      channel: h.channel,
      environment: "foo",
      grid: [],
      createdBy: "someone",
    });
    h.services.sweeps.insert({
      id: "s0000002",
      channel: { ...h.channel, channel: "elsewhere" },
      environment: "foo",
      grid: [],
      createdBy: "someone",
    });
    const all = choicesOf(await h.fake.autocomplete("halt", { run_id: "" }, "run_id").callback());
    expect(all).toEqual([
      { name: "s0000001 (sweep)", value: "s0000001" },
      { name: "feed0001", value: "feed0001" },
    ]);
  });

  it("offers what is known while the first scan of the folder is still running, then the scan's answer", async () => {
    // atroposlib's base.py as a FIFO: the scan's read of it waits (as on a slow network disk) until the test writes.
    const atroposlib = tempDir();
    mkdirSync(path.join(atroposlib, "envs"));
    const baseFile = path.join(atroposlib, "envs", "base.py");
    execFileSync("mkfifo", [baseFile]);
    const h = await start({ env: { RL_ATROPOSLIB_DIR: atroposlib }, awaitFirstScan: false });
    const firstScan = h.services.env.listEnvironments();
    try {
      h.services.channels.selectEnvironment(h.channel, "foo");
      h.services.channels.setConfigValue(h.channel, "foo", "temperature", 0.9);
      expect(choicesOf(await h.fake.autocomplete("select", { name: "" }, "name").callback())).toEqual([
        { name: "▶ foo · selected here (still scanning the folder)", value: "foo" },
      ]);
      expect(choicesOf(await h.fake.autocomplete("set", { field: "" }, "field").callback())).toEqual([
        { name: "* temperature = 0.9 (set here; still scanning the folder)", value: "temperature" },
      ]);
    } finally {
      writeFileSync(baseFile, "");
    }
    await firstScan;
    expect(choicesOf(await h.fake.autocomplete("select", { name: "" }, "name").callback())).toEqual([
      { name: "▶ foo · Environment from foo_env.py", value: "foo" },
    ]);
  });

  it("suggests command names for /rl help", async () => {
    const h = await start();
    const choices = choicesOf(await h.fake.autocomplete("help", { command: "sel" }, "command").callback());
    expect(choices[0]?.value).toBe("select");
  });

  it("shows nothing to someone the policy gives no access", async () => {
    const h = await start({ env: { RL_DEFAULT_ROLE: "none" } });
    expect(choicesOf(await h.fake.autocomplete("select", { name: "" }, "name", { user: BOB }).callback())).toEqual([]);
    expect(choicesOf(await h.fake.autocomplete("select", { name: "" }, "name").callback()).map((c) => c.value)).toEqual(
      ["foo"],
    );
  });
});
