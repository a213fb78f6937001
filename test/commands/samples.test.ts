// /rl samples on every surface: a demo recipe run's rollouts on the console (whole), model text carrying mention,
// link and formatting strings shown inert through Slack's and Discord's renderers, and the whole texts of a cut answer
// shared beside it (a snippet in the answer's Slack thread through real Bolt, an attachment through real discord.js).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderSlack } from "../../adapters/slack/slack-render.ts";
import { COMMANDS } from "../../commands/index.ts";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import type { RunSamplesView } from "../../src/training/run-report.ts";
import { runFolderOf } from "../../src/stacks/log-path.ts";
import type { Services } from "../../src/services.ts";
import { selectRecipe, startCookbook } from "../helpers/cookbook.ts";
import { scoredGroupLine } from "../helpers/scored-group.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../helpers/demo-stack.ts";
import {
  answerOf,
  bodyOf,
  embedsOf,
  messageIdOf,
  startHarness,
  stopHarness,
  type Harness,
} from "../discord/harness.ts";
import { startSlackHarness, textOf, type SlackHarness } from "../slack/slack-harness.ts";
import { CHANNEL, TEAM, slashCommand } from "../slack/slack-payloads.ts";

const INJECTIONS = "<!channel> @everyone <https://x|y> *bold*";

const stacks: DemoStack[] = [];
let h: Harness | undefined;
let slack: SlackHarness | undefined;
afterEach(async () => {
  await closeDemoStacks(stacks);
  await stopHarness(h);
  h = undefined;
  await slack?.close();
  slack = undefined;
});

/** The long completion of hostileRun's first group, whole. */
const LONG_ANSWER = `${INJECTIONS} ${"long ".repeat(400)}`;

/** An Atropos run whose environment wrote one step of two groups, the model's text carrying the injection strings. */
function hostileRun(services: Services, channel: CommandContext["channel"]): string {
  const id = "feed0001";
  services.runs.insert({ id, channel, environment: "foo", config: {}, status: "completed", createdBy: "u" });
  const folder = runFolderOf(services.config.dataDir, id);
  mkdirSync(folder, { recursive: true });
  const group = (answers: string[], scores: number[]) => scoredGroupLine(`Say ${INJECTIONS}`, answers, scores);
  writeFileSync(
    path.join(folder, "groups.jsonl"),
    `${group([LONG_ANSWER, "meh"], [1, 0])}\n${group(["fine", INJECTIONS], [0.5, -1])}\n`,
  );
  return id;
}

describe("/rl samples", () => {
  it("shows a demo recipe run's best rollouts of its latest step on the console, texts whole", async () => {
    const stack = await startCookbook();
    stacks.push(stack);
    await selectRecipe(stack.services, CONSOLE, { steps: 3, stepSeconds: 0.05 });
    const ctx: CommandContext = { channel: CONSOLE, user: { id: "local" }, via: "console", services: stack.services };
    const completed = nextEvent(stack.services, "completed");
    const started = await dispatch({ text: "/rl start" }, ctx, { confirmed: true });
    const id = (started.reply.data as { run_id: string }).run_id;
    await completed;
    const { ok, reply } = await dispatch({ text: `/rl samples ${id} --best --n 2` }, ctx);
    expect(ok, reply.text).toBe(true);
    expect(reply.title).toMatch(new RegExp(`Run ${id} .*samples of step 2$`));
    const view = reply.data as RunSamplesView;
    expect(view).toMatchObject({ step: 2, firstStep: 0, lastStep: 2, stack: "tinker-cookbook" });
    expect(view.samples).toHaveLength(2);
    expect(view.samples[0]!.score).toBeGreaterThanOrEqual(view.samples[1]!.score);
    expect(reply.blocks?.[0]?.title).toMatch(/^#1 · score [\d.]+ · group \d+: /);
    expect(reply.blocks?.[0]?.content).toMatch(
      /^prompt:\nWhat is \d+ \+ \d+\?\n\ncompletion:\nThe answer is \\boxed\{\d+\}\.$/,
    );
    const step0 = await dispatch({ text: `/rl samples ${id} --step 0 --worst --n 1` }, ctx);
    expect((step0.reply.data as RunSamplesView).step).toBe(0);
    const both = await dispatch({ text: `/rl samples ${id} --best --worst` }, ctx);
    expect(both.ok).toBe(false);
  });

  it("keeps model text inert on Slack: markup escaped, texts cut with the way to see them whole", async () => {
    // The Discord harness only for its bot services: the reply is rendered by Slack's renderer.
    h = await startHarness({ adapter: { commands: COMMANDS } });
    const id = hostileRun(h.services, h.channel);
    const ctx: CommandContext = { channel: h.channel, user: { id: "u" }, via: "slash", services: h.services };
    const { reply } = await dispatch({ text: `/rl samples ${id} --step 0 --best --n 3` }, ctx);
    const { text, blocks } = renderSlack(reply);
    const shown = `${text}\n${textOf(blocks)}`;
    expect(shown).toContain("&lt;!channel&gt; @everyone &lt;https://x|y&gt;");
    expect(shown).not.toMatch(/<!channel>|<https:\/\/x\|y>/);
    expect(shown).toContain("more characters)");
    expect(shown).toContain("`rl samples` on the bot's console shows them whole");
  });

  it("keeps model text inert on Discord, where /rl samples is registered: no mention, link or formatting taken", async () => {
    h = await startHarness({ adapter: { commands: COMMANDS } });
    const id = hostileRun(h.services, h.channel);
    const call = await answerOf(h.fake, h.fake.slash("samples", { run: id, step: 1, worst: true }));
    const body = bodyOf(call);
    const data = (typeof body["type"] === "number" ? body["data"] : body) as Record<string, unknown>;
    expect(data["allowed_mentions"]).toMatchObject({ parse: [] });
    const embeds = embedsOf(call);
    const all = JSON.stringify(embeds);
    expect(all).toContain("score -1");
    // Outside code fences nothing of the model's text is markup; inside them Discord shows it as typed.
    const prose = embeds
      .flatMap((e) => [
        e["title"],
        e["description"],
        ...((e["fields"] as Array<{ name: string; value: string }>) ?? []).map((f) => f.name),
      ])
      .filter((s): s is string => typeof s === "string")
      .join("\n")
      .replace(/```[\s\S]*?```/g, "");
    expect(prose).not.toMatch(/@everyone|<https|\*bold\*/);
    expect(all).toContain(INJECTIONS);
  });

  it("shares the whole texts of a cut Slack answer as a snippet in the answer's thread (real Bolt)", async () => {
    slack = await startSlackHarness({ commands: COMMANDS });
    const id = hostileRun(slack.services, { platform: "slack", workspace: TEAM, channel: CHANNEL });
    await slack.slash(
      slashCommand({ text: `samples ${id} --step 0 --best --n 2`, responseUrl: slack.fake.responseUrl() }),
    );
    const upload = await slack.fake.uploads.waitFor();
    const answer = slack.fake.calls.items.find((c) => c.method === "chat.postMessage");
    const answerTs = [...slack.fake.messages.values()].find((m) => m.channel === CHANNEL && !m.thread_ts)?.ts;
    expect(textOf(answer?.body.blocks)).toContain(`samples-${id}-step-0.txt`);
    expect(upload).toMatchObject({
      channel: CHANNEL,
      thread_ts: answerTs,
      filename: `samples-${id}-step-0.txt`,
      title: `Samples of run ${id}, step 0, whole`,
      isPng: false,
    });
    expect(upload.bytes.length).toBe(upload.declaredLength);
    const text = upload.bytes.toString("utf8");
    // Every character of the model's text, as typed: a file is never read as mrkdwn.
    expect(text).toContain(`completion:\n${LONG_ANSWER}`);
    expect(text).toMatch(/^#1 · score 1 · group 0: 1 0\n\nprompt:\nuser: Say <!channel>/);
    expect(text).toContain("#2 · score 0 · group 0: 1 0");
  });

  it("attaches the whole texts of a cut Discord answer as a text file (real discord.js)", async () => {
    h = await startHarness({ adapter: { commands: COMMANDS } });
    const id = hostileRun(h.services, h.channel);
    const call = await answerOf(h.fake, h.fake.slash("samples", { run: id, step: 0, best: true }));
    // discord.js sends a Buffer's type as it sniffs it (a text has no signature); the name says what it is.
    expect(call.files.map((f) => ({ field: f.field, name: f.name }))).toEqual([
      { field: "files[0]", name: `samples-${id}-step-0.txt` },
    ]);
    expect(call.files[0]?.data.toString("utf8")).toContain(`completion:\n${LONG_ANSWER}`);
    const stored = h.fake.message(messageIdOf(call));
    expect(stored?.["attachments"]).toMatchObject([{ filename: `samples-${id}-step-0.txt` }]);
    expect(JSON.stringify(embedsOf(call))).toContain(`samples-${id}-step-0.txt`);
  });
});
