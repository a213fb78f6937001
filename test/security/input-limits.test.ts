// Every input limit, on every route it applies to (typed text, JSON arguments, Discord options, chat), each with a clear error.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import { MAX_COMMAND_LENGTH } from "../../commands/parse-command-text.ts";
import { createChatHandler } from "../../adapters/chat/create-chat-handler.ts";
import { MAX_ARGS_CHARS, MAX_ARGS_DEPTH } from "../../src/values/check-input-size.ts";
import { MAX_LIST_ITEMS, MAX_VALUE_DEPTH, MAX_VALUE_LENGTH } from "../../src/values/parse-field-value.ts";
import { ALICE } from "../fakes/discord-gateway.ts";
import { startFakeLlm, type FakeLlm } from "../fakes/llm-server.ts";
import { embedsOf, startHarness, stopHarness, type Harness } from "../discord/harness.ts";
import { POLICY_ENV, SLACK, USERS, probeEnvSource, startKit, type Kit } from "./security-kit.ts";

let kit: Kit | undefined;
let llm: FakeLlm | undefined;
let discord: Harness | undefined;
afterEach(async () => {
  await kit?.close();
  await llm?.close();
  await stopHarness(discord);
  kit = undefined;
  llm = undefined;
  discord = undefined;
});

async function selected(env: Record<string, string> = {}): Promise<Kit> {
  kit = startKit({ env: { ...POLICY_ENV, ...env } });
  expect((await dispatch({ text: "/rl select probe" }, kit.ctx(USERS.operator))).ok).toBe(true);
  return kit;
}

const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

describe("input limits", () => {
  it(`command text: ${MAX_COMMAND_LENGTH.toLocaleString("en")} characters`, async () => {
    const k = await selected();
    const long = `/rl set label ${"x".repeat(MAX_COMMAND_LENGTH)}`;
    const r = await dispatch({ text: long }, k.ctx(USERS.operator));
    expect(r.reply.error?.code).toBe("USAGE");
    expect(r.reply.text).toBe(
      `That command is ${long.length} characters long; the limit is ${MAX_COMMAND_LENGTH}. Shorten it.`,
    );
  });

  it("JSON arguments: total size, nesting, list length and shape, before anything else", async () => {
    const k = await selected();
    const chat = k.ctx(USERS.operator, { via: "chat" });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: "x".repeat(MAX_ARGS_CHARS + 1) }, /are 8,005 characters long in all; the limit is 8,000/],
      [{ field: "extra", value: "v", deep: nested(MAX_ARGS_DEPTH + 2) }, /nested more than 8 levels deep/],
      [{ steps: 1, models: Array.from({ length: MAX_LIST_ITEMS + 1 }, () => "m") }, /has 257 items; the limit is 256/],
      [Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])), /has 65 keys; the limit is 64/],
      [{ steps: Number.POSITIVE_INFINITY }, /not finite/],
    ];
    for (const [args, message] of cases) {
      const r = await dispatch({ name: "rl_select_environment", args }, chat);
      expect(r.reply.error?.code).toBe("USAGE");
      expect(r.reply.text).toMatch(message);
    }
    for (const args of [null, [], "text", 5] as unknown[]) {
      const r = await dispatch({ name: "rl_select_environment", args: args as Record<string, unknown> }, chat);
      expect(r.reply.text).toMatch(/must be an object of named values/);
    }
    expect(k.services.channels.configValues(SLACK, "probe")).toEqual({});
  });

  it(`config values: ${MAX_VALUE_LENGTH.toLocaleString("en")} characters, typed, as JSON, and at the operation itself`, async () => {
    const k = await selected();
    const value = "v".repeat(MAX_VALUE_LENGTH + 1);
    const typed = await dispatch({ text: `/rl set label ${value}` }, k.ctx(USERS.operator));
    expect(typed.reply.error?.code).toBe("USAGE");
    expect(typed.reply.text).toMatch(/^value is too long: at most 4000 characters\.\nUsage: \/rl set/);
    const json = await dispatch(
      { name: "rl_edit_config", args: { field: "label", value } },
      k.ctx(USERS.operator, { via: "chat" }),
    );
    expect(json.reply.text).toMatch(/^value is too long: at most 4000 characters\./);
    await expect(k.services.env.editConfig(SLACK, "label", value)).rejects.toThrow(
      /is 4001 characters long; the limit is 4000/,
    );
    await expect(k.services.env.editConfig(SLACK, "extra", { big: value })).rejects.toThrow(
      /characters long; the limit is 4000/,
    );
    expect((await dispatch({ text: `/rl set label ${"v".repeat(MAX_VALUE_LENGTH)}` }, k.ctx(USERS.operator))).ok).toBe(
      true,
    );
  });

  it(`lists: ${MAX_LIST_ITEMS} items, comma-separated or JSON; JSON values nest at most ${MAX_VALUE_DEPTH} deep`, async () => {
    const k = await selected();
    const items = Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, i) => `t${i}`);
    const comma = await dispatch({ text: `/rl set tags ${items.join(",")}` }, k.ctx(USERS.operator));
    expect(comma.reply.error?.code).toBe("INVALID_VALUE");
    expect(comma.reply.text).toBe("A list may hold at most 256 items; this one has 257.");
    const json = await dispatch(
      { name: "rl_edit_config", args: { field: "tags", value: JSON.stringify(items) } },
      k.ctx(USERS.operator, { via: "chat" }),
    );
    expect(json.reply.text).toBe("A list may hold at most 256 items; this one has 257.");
    const deep = await dispatch(
      { text: `/rl set extra ${JSON.stringify(nested(MAX_VALUE_DEPTH + 1))}` },
      k.ctx(USERS.operator),
    );
    expect(deep.reply.text).toBe("The value for extra is nested more than 16 levels deep; give flatter data.");
    const models = await dispatch(
      { text: `/rl test --models ${Array.from({ length: 11 }, (_, i) => `m/${i}`).join(",")}` },
      k.ctx(USERS.operator),
    );
    expect(models.reply.text).toMatch(/^models has too many items: at most 10\./);
    expect(k.services.channels.configValues(SLACK, "probe")).toEqual({});
  });

  it("environment files: larger than RL_SCAN_MAX_FILE_BYTES are skipped unread, with a warning", async () => {
    kit = startKit({
      env: { ...POLICY_ENV, RL_SCAN_MAX_FILE_BYTES: "2000" },
      envFiles: {
        "probe_env.py": probeEnvSource(),
        "huge_env.py": probeEnvSource().replace('name = "probe"', 'name = "huge"') + `# ${"x".repeat(3000)}\n`,
      },
    });
    const r = await dispatch({ text: "/rl envs" }, kit.ctx(USERS.reader));
    expect((r.reply.data as { environments: Array<{ name: string }> }).environments.map((e) => e.name)).toEqual([
      "probe",
    ]);
    expect(r.reply.blocks?.[0]?.content).toMatch(/huge_env\.py: file is \d+ bytes, over the 2000-byte limit; skipped/);
    // A file that grows past the limit after it was listed is refused as well.
    writeFileSync(path.join(kit.root, "environments", "probe_env.py"), probeEnvSource() + `# ${"y".repeat(3000)}\n`);
    const again = await dispatch({ text: "/rl select probe" }, kit.ctx(USERS.operator));
    expect(again.reply.error?.code).toBe("NOT_FOUND");
  });

  it("chat messages: the limit is checked before the model is asked", async () => {
    const k = await selected();
    llm = await startFakeLlm();
    const chat = createChatHandler(k.services, { llm: { baseUrl: llm.baseUrl, model: "fake/model" } });
    const reply = await chat("y".repeat(4_001), k.ctx(USERS.operator, { via: "chat" }));
    expect(reply.error).toMatchObject({ code: "USAGE", details: { length: 4001, limit: 4000 } });
    expect(reply.text).toBe("Your message is 4,001 characters; the limit is 4,000. Shorten it, or use /rl commands.");
    expect(llm.requests).toHaveLength(0);
  });

  it("Discord options: the same limits and locked fields through real discord.js", async () => {
    discord = await startHarness();
    const { fake } = discord;
    // Read through Discord's markdown escapes (total\_steps): the text a person sees.
    const description = async (sub: string, values: Record<string, string>) =>
      String(embedsOf(await fake.slash(sub, values, { user: ALICE }).callback())[0]?.["description"]).replace(
        /\\([_*~`|>\\[\]()])/g,
        "$1",
      );
    expect(await description("select", { name: "foo" })).toContain("configurable fields");
    expect(await description("set", { field: "temperature", value: "9".repeat(MAX_VALUE_LENGTH + 1) })).toMatch(
      /^value is too long: at most 4000 characters\./,
    );
    expect(await description("set", { field: "Total-Steps", value: "5" })).toBe(
      "total_steps is locked to 2500 by the infrastructure settings and cannot be changed.",
    );
    // The trainer's own fields are config fields too; the locked file locks this one.
    expect(await description("set", { field: "tinker.lora_rank", value: "5" })).toBe(
      "tinker.lora_rank is locked to 32 by the infrastructure settings and cannot be changed. The team can unlock it by removing lora_rank from the tinker: section of the locked fields file (RL_LOCKED_FIELDS).",
    );
    expect(discord.services.audit.latest(10).filter((a) => a.outcome === "refused")).toHaveLength(2);
  });
});
