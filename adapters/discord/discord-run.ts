// Runs a command for a Discord interaction as the person who acted, answers it in time, and anchors run replies.
import { MessageFlags } from "discord.js";
import type { BaseInteraction, ButtonInteraction, REST, RepliableInteraction } from "discord.js";
import { answerPrompt } from "../../commands/confirmation/answer-prompt.ts";
import { dispatch, type CommandInput, type ConfirmationAnswerInput } from "../../commands/dispatch.ts";
import type { AnyCommand, CommandContext } from "../../commands/types.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ChartRenderer } from "../../src/metrics/render-chart.ts";
import type { AnchorHandler, ChatHandler } from "../chat-adapter.ts";
import { recordAnchor } from "../record-anchor.ts";
import { recordApprovalMessage } from "../record-approval-message.ts";
import { asEphemeral, type Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import type { ButtonStore } from "./discord-buttons.ts";
import { attachChart, filesOption, sendWithChart } from "./discord-chart.ts";
import { attachFile } from "./discord-file.ts";
import { callerOf, whereOf, type ChannelLike, type Where } from "./discord-context.ts";
import { fitsDiscord, renderDiscordReply, statusEmbed, type DiscordMessage } from "./discord-render.ts";
import { createResponder } from "./discord-responder.ts";
import { firstPage } from "../paginate-reply.ts";
import { startThreadFrom, threadNameOf } from "./discord-thread.ts";
import { redactReply } from "../redact-reply.ts";

export interface DiscordDeps {
  services: Services;
  commands: readonly AnyCommand[];
  buttons: ButtonStore;
  /** Given the message's id, or the thread's when the reply is in a thread channel. */
  onAnchor?: AnchorHandler;
  runIds?: (channel: ChannelKey) => readonly string[] | Promise<readonly string[]>;
  chat?: ChatHandler;
  /** Draws a reply's chart as a PNG to attach. */
  renderChart: ChartRenderer;
}

export type Via = CommandContext["via"];

/** Clean replies (pagedFor's, stored pages) were redacted already, and are not redacted again. */
export interface RenderHow {
  redacted?: boolean;
}

const redactorFor = (deps: DiscordDeps, how: RenderHow) => (how.redacted ? (s: string) => s : deps.services.redact);

export function renderFor(reply: Reply, deps: DiscordDeps, how: RenderHow = {}): DiscordMessage {
  const message = renderDiscordReply(reply, { redact: redactorFor(deps, how), buttonId: (b) => deps.buttons.idFor(b) });
  if (message.trimmed.length)
    deps.services.log.info("discord: reply trimmed to fit Discord's limits", {
      title: reply.title,
      trimmed: message.trimmed,
    });
  return message;
}

/**
 * The reply as its first message: whole when it fits, else page 1 of N with the pages saved for the buttons. It is
 * redacted once, before its pages are kept: render it with { redacted: true }.
 */
export function pagedFor(reply: Reply, channel: ChannelKey, deps: DiscordDeps): Reply {
  return firstPage(redactReply(reply, deps.services.redact), fitsDiscord, { pages: deps.services.pages, channel });
}

/** renderFor plus the chart's PNG, when the reply has a chart and it could be drawn, and the reply's file. */
export async function renderWithChart(reply: Reply, deps: DiscordDeps, how: RenderHow = {}): Promise<DiscordMessage> {
  const redact = redactorFor(deps, how);
  const charted = await attachChart(renderFor(reply, deps, how), reply.chart, {
    renderChart: deps.renderChart,
    redact,
    log: deps.services.log,
  });
  return attachFile(charted, reply.file, redact);
}

export function whereOfInteraction(i: BaseInteraction): Where {
  return whereOf(i.guildId, i.channel as ChannelLike | null, i.channelId);
}

/**
 * Where later notices about a run started here go: the thread it was asked in, else a thread started from its
 * message. The message is recorded first (durably), then the thread started: a crash in between leaves the message,
 * whose thread the next notice starts (discord-post.ts), and a repeat of the start finds the thread Discord has.
 */
export async function anchorReply(
  reply: Reply,
  where: Where,
  messageId: string | undefined,
  ephemeral: boolean,
  deps: DiscordDeps,
  rest: REST,
): Promise<void> {
  // An approval request's message is edited once decided: where it went is recorded here, where every post passes.
  if (messageId && !ephemeral)
    recordApprovalMessage(deps.services, reply, { id: messageId, ...(where.thread ? { thread: where.thread } : {}) });
  const runId = reply.delivery?.anchorRunId;
  if (!runId || !deps.onAnchor) return;
  const { log } = deps.services;
  const id = where.thread ?? (ephemeral ? undefined : messageId);
  if (!id) {
    log.warn("discord: no public message to anchor the run's notices to", { run: runId });
    return;
  }
  const message =
    messageId && !ephemeral ? { id: messageId, ...(where.thread ? { thread: where.thread } : {}) } : undefined;
  await recordAnchor(deps.onAnchor, log, runId, where.channel, id, message);
  if (where.thread || !messageId) return;
  const name = threadNameOf(deps.services.redact(reply.title ?? ""), `Run ${runId}`);
  try {
    const thread = await startThreadFrom(rest, where.channel.channel, messageId, name);
    if (thread !== id) await recordAnchor(deps.onAnchor, log, runId, where.channel, thread, message);
  } catch (err) {
    // The notices still reach the message, as replies to it.
    log.warn("discord: could not start the run's thread; its notices answer its message", { run: runId, err });
  }
}

/** Slow work (command.slow) defers at once; a confirmation prompt comes back fast, so those do not. */
export function isSlow(command: AnyCommand | undefined): boolean {
  return command?.slow === true && command.confirm !== true;
}

/** The registry command a "/rl name ..." text names, if any. */
export function commandOfText(text: string, commands: readonly AnyCommand[]): AnyCommand | undefined {
  const name = /^\s*\/?rl\s+(\S+)/i.exec(text)?.[1]?.toLowerCase();
  return commands.find((c) => c.name === name);
}

function contextFor(
  i: RepliableInteraction,
  where: Where,
  via: Via,
  deps: DiscordDeps,
  progress: (text: string) => Promise<void>,
): CommandContext {
  return {
    channel: where.channel,
    ...(where.thread ? { thread: where.thread } : {}),
    user: callerOf(i.user, i.member, i.guild),
    via,
    services: deps.services,
    progress: (text) =>
      progress(text).catch((err: unknown) => deps.services.log.warn("discord: progress update failed", { err })),
  };
}

/** How an answer goes out beyond the command's own delivery. */
export interface AnswerHow {
  /** The command is a personal read (answered privately): "thinking..." is private too. */
  personal?: boolean;
  /** The answer replaces the clicked message (a private answer's own button). */
  inPlace?: boolean;
}

/** A typed /rl command or a reply button: run as the person, answer within 3 s, anchor a run's reply. */
export async function runAndAnswer(
  i: RepliableInteraction,
  input: CommandInput,
  slow: boolean,
  via: Via,
  deps: DiscordDeps,
  how: AnswerHow = {},
): Promise<void> {
  const responder = createResponder(i, {
    log: deps.services.log,
    redact: deps.services.redact,
    inPlace: how.inPlace === true,
    ephemeral: how.personal === true,
  });
  try {
    const where = whereOfInteraction(i);
    const ctx = contextFor(i, where, via, deps, responder.progress);
    if (slow) await responder.defer(how.personal === true);
    const result = await dispatch(input, ctx, { commands: deps.commands });
    const message = await renderWithChart(pagedFor(result.reply, where.channel, deps), deps, { redacted: true });
    const id = await sendWithChart(message, (m) => responder.finish(m), deps.services.log);
    await anchorReply(result.reply, where, id, message.ephemeral, deps, i.client.rest);
  } finally {
    responder.dispose();
  }
}

/**
 * Confirm or Cancel on a prompt, answered through its record as the clicker. Only a winning answer touches the prompt:
 * Confirm closes it at once (type 7), runs the stored command and posts the result as a follow-up; Cancel closes it.
 * A refusal, a replay or an expired prompt is told to the clicker alone, and the prompt stays as it was.
 */
export async function answerDiscordPrompt(
  i: ButtonInteraction,
  input: ConfirmationAnswerInput,
  deps: DiscordDeps,
): Promise<void> {
  const { redact } = deps.services;
  const where = whereOfInteraction(i);
  const who = callerOf(i.user, i.member, i.guild).name ?? i.user.username;
  let progressed = false;
  const ctx = contextFor(i, where, "button", deps, async (line) => {
    progressed = true;
    await i.editReply({ embeds: [statusEmbed(`⏳ ${line}`, redact)], components: [] });
  });
  // A won Confirm's prompt loses its buttons at once (type 7), before the stored command runs as the clicker.
  const answer = await answerPrompt(input, ctx, deps.commands, {
    closeConfirmed: async (_won, line) =>
      void (await i.update({ embeds: [statusEmbed(line, redact)], components: [] })),
  });
  const { result } = answer;
  if (answer.kind === "cancelled") {
    await i.update({ embeds: [statusEmbed(`${answer.line}.`, redact)], components: [] });
    return;
  }
  if (answer.kind !== "ran") {
    const message = renderFor(asEphemeral(result.reply), deps);
    await i.reply({ embeds: message.embeds, components: message.components, flags: MessageFlags.Ephemeral });
    return;
  }
  const text = answer.won.confirmation.commandText;
  const message = await renderWithChart(pagedFor(result.reply, where.channel, deps), deps, { redacted: true });
  const sent = await sendWithChart(
    message,
    (m) =>
      i.followUp({
        embeds: m.embeds,
        components: m.components,
        ...filesOption(m),
        ...(m.ephemeral ? { flags: MessageFlags.Ephemeral as const } : {}),
      }),
    deps.services.log,
  );
  if (progressed) {
    await i
      .editReply({
        embeds: [statusEmbed(`${result.ok ? "Done" : "Failed"}: ${text} (confirmed by ${who})`, redact, !result.ok)],
      })
      .catch((err: unknown) => deps.services.log.warn("discord: could not close the prompt", { err }));
  }
  await anchorReply(result.reply, where, sent.id, message.ephemeral, deps, i.client.rest);
}
