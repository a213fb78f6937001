// Routes Discord interactions: /rl commands, autocomplete, and buttons (answer a prompt, run a command).
import { MessageFlags } from "discord.js";
import type { AutocompleteInteraction, ButtonInteraction, ChatInputCommandInteraction, Interaction } from "discord.js";
import type { RunInput } from "../../commands/dispatch.ts";
import { isPersonal, willRun } from "../../commands/will-run.ts";
import { allows, roleOf } from "../../src/policy.ts";
import { suggest, suggestKnown, suggestionSource } from "./discord-autocomplete.ts";
import { argsFromOptions, commandFor, ROOT_COMMAND, specFor } from "./discord-command-json.ts";
import { callerOf } from "./discord-context.ts";
import { DISCORD } from "./discord-limits.ts";
import { turnDiscordPage } from "./discord-page.ts";
import { shareDiscordAnswer } from "./discord-share.ts";
import { statusEmbed } from "./discord-render.ts";
import {
  answerDiscordPrompt,
  commandOfText,
  isSlow,
  runAndAnswer,
  whereOfInteraction,
  type DiscordDeps,
} from "./discord-run.ts";

/**
 * Slow work defers at once, in public; a refusal (an approver's own request, say) does not: it is answered fast, to
 * the person alone, with no public "thinking…" first.
 */
function willRunHere(
  i: ChatInputCommandInteraction | ButtonInteraction,
  input: RunInput,
  via: "slash" | "button",
  deps: DiscordDeps,
): boolean {
  const ctx = {
    channel: whereOfInteraction(i).channel,
    user: callerOf(i.user, i.member, i.guild),
    via,
    services: deps.services,
  };
  return willRun(input, ctx, deps.commands);
}

async function answerCommand(i: ChatInputCommandInteraction, deps: DiscordDeps): Promise<void> {
  const sub = i.options.getSubcommand(false);
  const command = sub ? commandFor(deps.commands, sub) : undefined;
  if (!command) {
    // Registered commands can outlive a registry change; dispatch answers with the usage error.
    await runAndAnswer(i, { text: `/rl ${sub ?? "help"}` }, false, "slash", deps);
    return;
  }
  const args = argsFromOptions(command, (name) => i.options.get(name)?.value);
  const input = { name: command.name, args };
  await runAndAnswer(i, input, isSlow(command) && willRunHere(i, input, "slash", deps), "slash", deps, {
    personal: isPersonal(input, deps.commands),
  });
}

/** Whatever goes wrong, autocomplete answers before Discord's 3 s are up: with what is known then, or nothing. */
async function answerAutocomplete(i: AutocompleteInteraction, deps: DiscordDeps): Promise<void> {
  const { services } = deps;
  const focused = i.options.getFocused(true);
  const command = commandFor(deps.commands, i.options.getSubcommand(false) ?? "");
  const spec = command ? specFor(command, focused.name) : undefined;
  const source = command && spec ? suggestionSource(command.name, spec) : undefined;
  const where = whereOfInteraction(i);
  const caller = callerOf(i.user, i.member, i.guild);
  // Suggestions show environment names and config values: only to people allowed to read them.
  const mayRead = allows(roleOf(services.config.policy, where.channel, caller), "read");
  let choices: Awaited<ReturnType<typeof suggest>> = [];
  if (command && spec && source && mayRead) {
    let timer: NodeJS.Timeout | undefined;
    // A scan still running at the deadline (the first one of a big folder): offer what is known so far.
    const deadline = new Promise<typeof choices>(
      (resolve) =>
        (timer = setTimeout(
          () => resolve(suggestKnown(source, String(focused.value), { services, channel: where.channel })),
          DISCORD.ackDeadlineMs,
        )),
    );
    const work = suggest(source, spec, String(focused.value), {
      services,
      channel: where.channel,
      commands: deps.commands,
      runIds: deps.runIds,
    }).catch((err: unknown) => {
      services.log.debug("discord: no suggestions", { source, err });
      return [];
    });
    choices = await Promise.race([work, deadline]);
    clearTimeout(timer);
  }
  await i.respond(choices);
}

async function answerButton(i: ButtonInteraction, deps: DiscordDeps): Promise<void> {
  const action = deps.buttons.resolve(i.customId);
  if (!action) return;
  const { redact } = deps.services;
  switch (action.kind) {
    case "answer":
      await answerDiscordPrompt(i, { confirmation: action.confirmation, answer: action.answer }, deps);
      return;
    case "page":
      await turnDiscordPage(i, action, deps);
      return;
    case "share":
      await shareDiscordAnswer(i, action, deps);
      return;
    case "expired":
      await i.reply({
        embeds: [statusEmbed("This button has expired (the bot restarted since). Run the command again.", redact)],
        flags: MessageFlags.Ephemeral,
      });
      return;
    case "run": {
      const command = commandOfText(action.command, deps.commands);
      // A button on a private answer (a list's Older page) answers in its place, when the answer is private too.
      const personal = isPersonal({ text: action.command }, deps.commands);
      const inPlace = i.message.flags.has(MessageFlags.Ephemeral) && personal;
      const input = { text: action.command };
      await runAndAnswer(i, input, isSlow(command) && willRunHere(i, input, "button", deps), "button", deps, {
        personal,
        inPlace,
      });
      return;
    }
  }
}

/** Last resort after a failure: tell the person something went wrong rather than leave "thinking..." forever. */
async function apologise(i: Interaction, deps: DiscordDeps): Promise<void> {
  if (!i.isRepliable()) return;
  const embeds = [
    statusEmbed("Something went wrong answering that; the error is in the bot's log.", deps.services.redact, true),
  ];
  if (!i.replied && !i.deferred) await i.reply({ embeds, flags: MessageFlags.Ephemeral });
  else if (i.deferred && !i.replied) await i.editReply({ embeds });
}

/** Never throws: every failure is logged and, where possible, answered. */
export async function handleInteraction(i: Interaction, deps: DiscordDeps): Promise<void> {
  try {
    if (i.isAutocomplete()) {
      if (i.commandName === ROOT_COMMAND) await answerAutocomplete(i, deps);
    } else if (i.isChatInputCommand()) {
      if (i.commandName === ROOT_COMMAND) await answerCommand(i, deps);
    } else if (i.isButton()) {
      await answerButton(i, deps);
    }
  } catch (err) {
    deps.services.log.error("discord: interaction failed", { type: i.type, id: i.id, user: i.user.id, err });
    await apologise(i, deps).catch((e: unknown) =>
      deps.services.log.warn("discord: could not report the failure", { err: e }),
    );
  }
}
