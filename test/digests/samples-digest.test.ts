// The digest's samples line: off by default, turned on and off per channel with /rl digest samples, the best and
// worst rollout of the run's latest step cut short, and the model's text inert on Slack and Discord.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderDiscordReply } from "../../adapters/discord/discord-render.ts";
import { renderSlack } from "../../adapters/slack/slack-render.ts";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { loadConfig } from "../../src/config.ts";
import type { Reply, ReplyField } from "../../src/reply.ts";
import { createServices, type Services } from "../../src/services.ts";
import { runFolderOf } from "../../src/stacks/log-path.ts";
import { textOf } from "../slack/slack-harness.ts";
import { scoredGroupLine } from "../helpers/scored-group.ts";
import { tempDir } from "../helpers/test-services.ts";

const INJECTIONS = "<!channel> @everyone <https://x|y> *bold*";
const HERE = { platform: "console", workspace: "local", channel: "lab" };
const ELSEWHERE = { platform: "console", workspace: "local", channel: "other" };

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

let clock = 0;

function services(): Services {
  const s = createServices(loadConfig({ RL_LOG_LEVEL: "silent" }, tempDir()), { now: () => clock });
  opened.push(s);
  return s;
}

/** A running Atropos run whose environment wrote two steps of one group each (no batch_size: a group is a step). */
function runWithGroups(s: Services, id: string, channel: CommandContext["channel"]): void {
  s.runs.insert({ id, channel, environment: "foo", config: {}, status: "running", createdBy: "U1" });
  s.runs.update(id, { startedAt: clock - 600_000 });
  const folder = runFolderOf(s.config.dataDir, id);
  mkdirSync(folder, { recursive: true });
  const group = (answers: string[], scores: number[]) => scoredGroupLine("Say something", answers, scores);
  writeFileSync(
    path.join(folder, "groups.jsonl"),
    [
      group(["old step", "older"], [0.2, 0.1]),
      group([`${INJECTIONS} ${"long ".repeat(100)}`, "meh", "a\n\nmiddling\nanswer"], [1, -1, 0.5]),
    ].join("\n") + "\n",
  );
}

const lastDigest = (s: Services): Reply => {
  const row = s.db.prepare("SELECT reply_json FROM outbox WHERE kind = 'digest' ORDER BY id DESC LIMIT 1").get() as
    { reply_json: string } | undefined;
  if (!row) throw new Error("no digest queued");
  return JSON.parse(row.reply_json) as Reply;
};
const samplesFields = (reply: Reply): ReplyField[] =>
  (reply.fields ?? []).filter((f) => f.label.startsWith("Sample of step"));

async function digestSamples(s: Services, channel: CommandContext["channel"], setting: string) {
  const ctx: CommandContext = { channel, user: { id: "local" }, via: "console", services: s };
  return dispatch({ text: `/rl digest samples ${setting}`.trim() }, ctx);
}

describe("the digest's samples line", () => {
  it("is off by default, on per channel with /rl digest samples on, and off again", async () => {
    clock = 80_000_000;
    const s = services();
    runWithGroups(s, "samp0001", HERE);
    runWithGroups(s, "samp0002", ELSEWHERE);

    await s.digests.runNow({ force: true, runId: "samp0001" });
    expect(samplesFields(lastDigest(s))).toEqual([]);

    const on = await digestSamples(s, HERE, "on");
    expect(on.ok, on.reply.text).toBe(true);
    expect(on.reply.data).toEqual({ channel_samples: true });
    clock += 60_000;
    await s.digests.runNow({ force: true, runId: "samp0001" });
    const [line] = samplesFields(lastDigest(s));
    expect(line?.label).toBe("Sample of step 1, run samp0001");
    expect(line?.value).toMatch(/^best 1 "<!channel> @everyone <https:\/\/x\|y> \*bold\* long long /);
    // Cut short: the completion's start only, on one line.
    expect(line?.value).toMatch(/… \(\d+ more characters\)" · worst -1 "meh" · \/rl samples samp0001$/);
    expect(line?.value.length).toBeLessThan(300);

    // Another channel's digest keeps its own setting (off).
    clock += 60_000;
    await s.digests.runNow({ force: true, runId: "samp0002" });
    expect(samplesFields(lastDigest(s))).toEqual([]);

    const off = await digestSamples(s, HERE, "off");
    expect(off.reply.data).toEqual({ channel_samples: false });
    clock += 60_000;
    await s.digests.runNow({ force: true, runId: "samp0001" });
    expect(samplesFields(lastDigest(s))).toEqual([]);

    const wrong = await digestSamples(s, HERE, "maybe");
    expect(wrong.ok).toBe(false);
    // The setting is kept with the channel: "on" is the default word.
    await digestSamples(s, HERE, "");
    expect(s.channels.digestSamples(HERE)).toBe(true);
    expect(s.channels.digestSamples(ELSEWHERE)).toBe(false);
  });

  it("keeps the model's text inert in the digest on Slack and Discord", async () => {
    clock = 90_000_000;
    const s = services();
    runWithGroups(s, "samp0003", HERE);
    await digestSamples(s, HERE, "on");
    await s.digests.runNow({ force: true, runId: "samp0003" });
    const digest = lastDigest(s);
    expect(samplesFields(digest)).toHaveLength(1);

    const slack = renderSlack(digest);
    const shown = `${slack.text}\n${textOf(slack.blocks)}`;
    expect(shown).toContain("&lt;!channel&gt; @everyone &lt;https://x|y&gt;");
    expect(shown).not.toMatch(/<!channel>|<https:\/\/x\|y>/);

    const discord = renderDiscordReply(digest, { redact: (t) => t, buttonId: () => "b" });
    const fields = discord.embeds.flatMap((e) => e.fields ?? []);
    const value = fields.find((f) => f.name.startsWith("Sample of step"))?.value ?? "";
    expect(value).toContain("best 1");
    expect(value).not.toMatch(/(^|[^\\])<https|(^|[^\\])\*bold\*|@everyone/);
  });
});
