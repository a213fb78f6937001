// Runs one /rl command for Slack, typed or clicked: a progress message for slow work, dispatch, then the answer where it belongs.
import type { RespondFn } from "@slack/bolt";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { WonConfirmation } from "../../commands/confirmation/answer-once.ts";
import { answerPrompt } from "../../commands/confirmation/answer-prompt.ts";
import { dispatch, type ConfirmationAnswerInput, type DispatchResult } from "../../commands/dispatch.ts";
import { COMMANDS } from "../../commands/index.ts";
import type { AnyCommand, Caller, CommandContext } from "../../commands/types.ts";
import { isPersonal, willRun } from "../../commands/will-run.ts";
import type { ChartRenderer } from "../../src/metrics/render-chart.ts";
import { asEphemeral, isEphemeral, type Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import type { AnchorHandler } from "../chat-adapter.ts";
import { recordAnchor } from "../record-anchor.ts";
import { recordApprovalMessage } from "../record-approval-message.ts";
import { shareChart } from "./slack-chart.ts";
import { shareFile } from "./slack-file.ts";
import { closedPrompt, type ClickedMessage } from "./slack-closed-prompt.ts";
import { isSlackChannelRefusal } from "./slack-delivery-failure.ts";
import type { SlackMessenger } from "./slack-messenger.ts";
import { firstPage } from "../paginate-reply.ts";
import type { SlackPeople } from "./slack-people.ts";
import { redactReply } from "../redact-reply.ts";
import { createProgressMessage } from "./slack-progress.ts";
import { escapeMrkdwn, truncate } from "./slack-mrkdwn.ts";
import { fitsSlack, renderPlain, renderSlack } from "./slack-render.ts";

export interface SlackCommandDeps {
  services: Services;
  messenger: SlackMessenger;
  /** People's names, so that lists and statuses name them without a ping. */
  people?: SlackPeople;
  commands?: readonly AnyCommand[];
  onAnchor?: AnchorHandler;
  renderChart: ChartRenderer;
}

export interface SlackCommandSource {
  channel: ChannelKey;
  user: Caller;
  /** typed: /rl ...; confirm: a Confirm or Cancel click on a prompt; button: any other command button. */
  kind: "typed" | "confirm" | "button";
  respond?: RespondFn;
  /** The clicked message is ephemeral (a prompt), so it may be replaced in place. */
  fromEphemeral?: boolean;
  /** The clicked message when it is public (a chat answer's prompt): closed with chat.update, in its conversation. */
  prompt?: ClickedMessage;
}

/** A command still working after this shows "Working on…", whatever its definition says. */
const SLOW_AFTER_MS = 1_000;

/** The words after "/rl", or "" for bare /rl. */
function commandWords(text: string): string {
  return text.trim().replace(/^\/?rl(\s+|$)/i, "");
}

function findCommand(text: string, commands: readonly AnyCommand[]): AnyCommand | undefined {
  const name = (commandWords(text).split(/\s+/)[0] || "help").toLowerCase();
  return commands.find((c) => c.name === name);
}

/** A mention when the id looks like a Slack user id; otherwise the escaped name. */
export function mentionOf(user: Caller): string {
  return /^[UW][A-Z0-9]+$/.test(user.id) ? `<@${user.id}>` : escapeMrkdwn(user.name ?? user.id);
}

/** Ephemeral to the person: through response_url, else chat.postEphemeral; logged if both fail. */
async function tellPrivately(
  source: SlackCommandSource,
  deps: SlackCommandDeps,
  reply: Reply,
  replace = false,
): Promise<void> {
  // Redacted once, before its pages are kept: the stored pages and what Slack is sent are the same clean text.
  const paged = firstPage(redactReply(reply, deps.services.redact), (r) => fitsSlack(r), {
    pages: deps.services.pages,
    channel: source.channel,
  });
  const message = renderSlack(paged, { names: await deps.people?.namesIn(paged) });
  const sent = await deps.messenger.respond(source.respond, message, { replace });
  if (!sent.ok) await deps.messenger.ephemeral(source.channel.channel, source.user.id, message);
}

/** Progress on long work: edits of our own "Working on…" message once there is one, else only the log. */
function progressFor(
  label: () => string,
  working: () => string | undefined,
  source: SlackCommandSource,
  deps: SlackCommandDeps,
) {
  const { messenger, services } = deps;
  const channelId = source.channel.channel;
  return createProgressMessage(async (line) => {
    // Without a message of our own to edit, progress stays in the log: response_url allows only 5 uses.
    const ts = working();
    if (ts) await messenger.update(channelId, ts, renderPlain(`${label()}: ${line}`, services.redact));
    else services.log.debug("slack progress", { command: label(), channel: channelId, line: services.redact(line) });
  });
}

export async function runSlackCommand(text: string, source: SlackCommandSource, deps: SlackCommandDeps): Promise<void> {
  const { services, messenger } = deps;
  const { redact, log } = services;
  const channelId = source.channel.channel;
  const command = findCommand(text, deps.commands ?? COMMANDS);
  const label = command ? `/rl ${command.name}` : "/rl";

  try {
    let working: string | undefined;
    const showWorking = async (): Promise<void> => {
      const posted = await messenger.post(channelId, renderPlain(`Working on ${label}…`, redact));
      if (posted.ok) working = posted.ts;
      else await messenger.respond(source.respond, renderPlain(`Working on ${label}…`, redact));
    };
    // A personal read answers privately, and a refusal (an approver's own request, say) to its person alone: no
    // public "Working on…" for either.
    const mayShow =
      command !== undefined &&
      !command.confirm &&
      !isPersonal({ text }, deps.commands ?? COMMANDS) &&
      willRun(
        { text },
        { channel: source.channel, user: source.user, via: source.kind === "typed" ? "slash" : "button", services },
        deps.commands ?? COMMANDS,
      );
    if (command?.slow && mayShow) await showWorking();
    // Any other command that turns out slow shows it too, once it has taken about a second.
    let late: Promise<void> | undefined;
    const timer =
      !command?.slow && mayShow
        ? setTimeout(() => {
            // Kept, not awaited here: the answer waits for it before it edits the message.
            late = showWorking();
          }, SLOW_AFTER_MS)
        : undefined;
    const progress = progressFor(
      () => label,
      () => working,
      source,
      deps,
    );
    const ctx: CommandContext = {
      channel: source.channel,
      // The "Working on…" message becomes the answer, so it is the run's thread from the start: notices queued
      // while the command runs (a run's "started") go into it instead of the channel.
      ...(working ? { thread: working } : {}),
      user: source.user,
      via: source.kind === "typed" ? "slash" : "button",
      services,
      progress: (line) => progress.show(line),
    };
    const result = await dispatch({ text }, ctx, deps.commands ? { commands: deps.commands } : {}).finally(() =>
      clearTimeout(timer),
    );
    await late;
    await progress.close();
    await deliver(result, text, working, source, deps, false);
  } catch (err) {
    // dispatch never throws; this is a bug in the delivery path, so the person still hears something.
    log.error("slack command handling failed", { command: label, channel: channelId, user: source.user.id, err });
    await tellPrivately(source, deps, {
      title: "Could not do that",
      text: `Something went wrong running ${label}. The error is in the bot's log.`,
      delivery: { ephemeral: true },
    });
  }
}

/**
 * A Confirm or Cancel click: answered through the prompt's record. Only a winning answer touches the prompt (Confirm
 * takes its buttons away at once, then runs; Cancel replaces it); a refusal, a replay or an expired prompt is told
 * privately and leaves the prompt as it was.
 */
export async function answerSlackPrompt(
  input: ConfirmationAnswerInput,
  source: SlackCommandSource,
  deps: SlackCommandDeps,
): Promise<void> {
  const { services, messenger } = deps;
  const { redact, log } = services;
  const channelId = source.channel.channel;
  const replacePrompt = source.fromEphemeral === true;
  let label = "/rl";
  let text = "";
  let working: string | undefined;
  try {
    const progress = progressFor(
      () => label,
      () => working,
      source,
      deps,
    );
    // A prompt in a conversation: the run's messages and notices belong in the conversation's thread.
    const thread = source.prompt?.thread;
    const ctx: CommandContext = {
      channel: source.channel,
      ...(thread ? { thread } : {}),
      user: source.user,
      via: "button",
      services,
      progress: (line) => progress.show(line),
    };
    const answer = await answerPrompt(input, ctx, deps.commands ?? COMMANDS, {
      closeConfirmed: async (won, line) => {
        label = `/rl ${won.command.name}`;
        text = won.confirmation.commandText;
        working = await closePrompt(won, label, line, source, deps);
        // The "Working on…" message becomes the answer, and (outside a conversation) the run's thread from the start.
        const runThread = thread ?? working;
        return runThread ? { thread: runThread } : undefined;
      },
    });
    await progress.close();
    if (answer.kind === "cancelled") {
      const confirmation = answer.result.answer?.confirmation;
      if (source.prompt && confirmation)
        await messenger.update(channelId, source.prompt.ts, closedPrompt(source.prompt, confirmation.id, answer.line));
      else await messenger.respond(source.respond, renderPlain(answer.line, redact), { replace: true });
      return;
    }
    if (answer.kind === "unchanged") {
      await tellPrivately(source, deps, asEphemeral(answer.result.reply));
      return;
    }
    await deliver(answer.result, text, working, source, deps, replacePrompt);
  } catch (err) {
    log.error("slack prompt answer failed", { command: label, channel: channelId, user: source.user.id, err });
    await tellPrivately(source, deps, {
      title: "Could not do that",
      text: `Something went wrong answering the prompt for ${label}. The error is in the bot's log.`,
      delivery: { ephemeral: true },
    });
  }
}

/**
 * A won Confirm's prompt loses its buttons at once and says what is happening (a public prompt keeps its answer and
 * says who confirmed; one that cannot be edited throws, so nothing runs behind live buttons); slow work gets a public
 * "Working on…" message, whose ts is returned: it becomes the answer.
 */
async function closePrompt(
  won: WonConfirmation,
  label: string,
  line: string,
  source: SlackCommandSource,
  deps: SlackCommandDeps,
): Promise<string | undefined> {
  const { messenger, services } = deps;
  const replacePrompt = source.fromEphemeral === true;
  const working = renderPlain(`Working on ${label}…`, services.redact);
  if (replacePrompt) await messenger.respond(source.respond, working, { replace: true });
  const { prompt } = source;
  if (prompt) {
    const closed = await messenger.update(
      source.channel.channel,
      prompt.ts,
      closedPrompt(prompt, won.confirmation.id, services.redact(line)),
    );
    if (!closed.ok) throw new Error(`chat.update of the prompt failed: ${closed.error}`);
  }
  if (won.command.slow !== true) return undefined;
  const posted = await messenger.post(source.channel.channel, working, prompt?.thread);
  if (posted.ok) return posted.ts;
  if (!replacePrompt) await messenger.respond(source.respond, working);
  return undefined;
}

/** The answer where it belongs: private for prompts and errors, else public (our "Working on…" message edited into it). */
async function deliver(
  result: DispatchResult,
  text: string,
  working: string | undefined,
  source: SlackCommandSource,
  deps: SlackCommandDeps,
  replacePrompt: boolean,
): Promise<void> {
  const { services, messenger } = deps;
  const { redact, log } = services;
  const channelId = source.channel.channel;
  const { reply } = result;
  const { anchorRunId } = reply.delivery ?? {};
  if (result.needsConfirmation || isEphemeral(reply)) {
    if (working) await messenger.remove(channelId, working);
    // A private answer's own button (Older, Newer) shows the next answer in its place.
    const replaceAnswer = source.kind === "button" && source.fromEphemeral === true && reply.delivery?.shareable;
    await tellPrivately(source, deps, reply, replacePrompt || replaceAnswer === true);
    return;
  }
  const verb = source.kind === "confirm" ? "confirmed" : source.kind === "button" ? "clicked" : "ran";
  const footer = redact(
    `${mentionOf(source.user)} ${verb} \`${escapeMrkdwn(truncate(`/rl ${commandWords(text)}`.trim(), 200))}\``,
  );
  // Redacted once, before its pages are kept: the stored pages and what Slack is sent are the same clean text.
  const paged = firstPage(redactReply(reply, redact), (r) => fitsSlack(r, { footer }), {
    pages: services.pages,
    channel: source.channel,
    footer,
  });
  const message = renderSlack(paged, { footer, names: await deps.people?.namesIn(paged) });
  let ts: string | undefined;
  let refusal: string | undefined;
  if (working) {
    const updated = await messenger.update(channelId, working, message);
    if (updated.ok) ts = working;
  }
  if (!ts) {
    const posted = await messenger.post(channelId, message, source.prompt?.thread);
    if (posted.ok) ts = posted.ts;
    else refusal = posted.error;
    if (working && ts) await messenger.remove(channelId, working);
  }
  if (ts) {
    // In a conversation, the run's thread is the conversation's (Slack threads under a parent, not under a reply).
    const runThread = source.prompt?.thread ?? ts;
    const thread = source.prompt?.thread;
    if (anchorRunId)
      await recordAnchor(deps.onAnchor, log, anchorRunId, source.channel, runThread, {
        id: ts,
        ...(thread ? { thread } : {}),
      });
    recordApprovalMessage(services, reply, { id: ts });
    if (replacePrompt) await messenger.dismiss(source.respond);
    // Only public answers get the picture: a file cannot be ephemeral, and response_url cannot carry one. It goes
    // where its answer went (a run's thread would part them), right after it.
    await shareChart(
      reply.chart,
      { channel: channelId, ...(thread ? { thread } : {}) },
      { messenger, renderChart: deps.renderChart, redact, log },
    );
    // The whole of what the answer cut short goes in its thread, one click away without crowding the channel.
    await shareFile(reply.file, { channel: channelId, thread: runThread }, { messenger, redact, log });
    return;
  }
  // The bot cannot post here (not a member, or Slack is failing): response_url can still show the answer.
  const shown = await messenger.respond(source.respond, message, { visibility: "in_channel" });
  if (!shown.ok) await messenger.ephemeral(channelId, source.user.id, message);
  if (replacePrompt) await messenger.dismiss(source.respond);
  if (anchorRunId)
    log.warn("slack: run message has no thread; later notices go to the channel", {
      runId: anchorRunId,
      channel: channelId,
      error: refusal,
    });
  const hint =
    refusal && isSlackChannelRefusal(refusal)
      ? "I am not a member of this channel, so run updates cannot be posted here. Invite me with /invite."
      : `Slack did not accept my message (${refusal ?? "unknown error"}); later updates may be missing.`;
  await tellPrivately(source, deps, { text: hint, delivery: { ephemeral: true } });
}
