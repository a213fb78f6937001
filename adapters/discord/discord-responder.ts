// Answers one interaction within Discord's 3 s: reply at once, or defer (now, or when time runs short) and edit.
import { MessageFlags } from "discord.js";
import type { RepliableInteraction } from "discord.js";
import type { Logger } from "../../src/log.ts";
import { filesOption } from "./discord-chart.ts";
import { DISCORD } from "./discord-limits.ts";
import { statusEmbed, type DiscordMessage } from "./discord-render.ts";

export interface Responder {
  /** Acknowledge now ("thinking..."); later answers edit it. */
  defer(ephemeral: boolean): Promise<void>;
  /** Show how long work is going (defers first if nothing was sent yet). */
  progress(text: string): Promise<void>;
  /** Send the answer; resolves to the id of the message carrying it, when Discord says. */
  finish(message: DiscordMessage): Promise<string | undefined>;
  /** Stop the safety timer (the answer went out another way). */
  dispose(): void;
}

export interface ResponderOptions {
  log: Logger;
  redact: (text: string) => string;
  /** Defer automatically when no answer went out by then (default 1 s: slow work shows, well inside Discord's 3 s). */
  deadlineMs?: number;
  /** A button's answer replaces the message the button is on (type 7, or a deferred update then edits of it). */
  inPlace?: boolean;
  /** The answer will be private (a personal read): a deferral is private from the start. */
  ephemeral?: boolean;
}

export function createResponder(interaction: RepliableInteraction, options: ResponderOptions): Responder {
  let state: "none" | "deferred" | "done" = "none";
  let deferredEphemeral = false;
  // Every call goes through one queue, so the safety timer and the answer never race each other.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(step: () => Promise<T>): Promise<T> => {
    const next = queue.then(step);
    queue = next.catch(() => undefined);
    return next;
  };

  const component = options.inPlace && interaction.isMessageComponent() ? interaction : undefined;

  const deferNow = async (ephemeral: boolean): Promise<void> => {
    if (state !== "none") return;
    if (component) await component.deferUpdate();
    else await interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {});
    state = "deferred";
    // An update keeps the clicked message as it is: private stays private.
    deferredEphemeral = component ? component.message.flags.has(MessageFlags.Ephemeral) : ephemeral;
  };

  const timer = setTimeout(() => {
    serial(() => deferNow(options.ephemeral === true)).catch((err: unknown) =>
      options.log.warn("discord: could not defer a reply", { err }),
    );
  }, options.deadlineMs ?? DISCORD.slowAfterMs);
  timer.unref();

  return {
    defer: (ephemeral) => serial(() => deferNow(ephemeral)),

    progress: (text) =>
      serial(async () => {
        await deferNow(options.ephemeral === true);
        if (state === "deferred")
          await interaction.editReply({ embeds: [statusEmbed(`⏳ ${text}`, options.redact)], components: [] });
      }),

    finish: (message) =>
      serial(async () => {
        clearTimeout(timer);
        const body = { embeds: message.embeds, components: message.components, ...filesOption(message) };
        if (state === "none" && component) {
          const response = await component.update({ ...body, withResponse: true });
          state = "done";
          return response.resource?.message?.id ?? component.message.id;
        }
        if (state === "none") {
          const response = await interaction.reply({
            ...body,
            ...(message.ephemeral ? { flags: MessageFlags.Ephemeral as const } : {}),
            withResponse: true,
          });
          state = "done";
          return response.resource?.message?.id ?? response.interaction.responseMessageId ?? undefined;
        }
        if (state === "deferred" && message.ephemeral && !deferredEphemeral) {
          // A public "thinking..." cannot turn private: remove it and answer privately instead.
          await interaction
            .deleteReply()
            .catch((err: unknown) => options.log.warn("discord: could not remove a placeholder", { err }));
          const sent = await interaction.followUp({ ...body, flags: MessageFlags.Ephemeral });
          state = "done";
          return sent.id;
        }
        const edited = await interaction.editReply(body);
        state = "done";
        return edited.id;
      }),

    dispose: () => clearTimeout(timer),
  };
}
