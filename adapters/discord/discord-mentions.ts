// Messages that mention the bot: "/rl ..." text runs as a command, anything else goes to chat mode (or gets a hint).
import type { Message } from "discord.js";
import { dispatch, errorReply } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { asRlError } from "../../src/errors.ts";
import type { Reply } from "../../src/reply.ts";
import { callerOf, whereOf, type ChannelLike } from "./discord-context.ts";
import { filesOption, sendWithChart } from "./discord-chart.ts";
import { anchorReply, pagedFor, renderWithChart, type DiscordDeps } from "./discord-run.ts";

function hint(deps: DiscordDeps): Reply {
  const names = deps.commands.map((c) => `/rl ${c.name}`).join(", ");
  return {
    title: "rl-chatops",
    text: `I answer slash commands: ${names}. Start with /rl help.\nPlain-language requests need chat mode (LLM_BASE_URL and LLM_MODEL set).`,
  };
}

/** Never throws: failures are logged. Ignores bots (itself included) and messages that do not mention it. */
export async function handleMention(message: Message, deps: DiscordDeps): Promise<void> {
  const { services } = deps;
  const me = message.client.user;
  if (message.author.bot || !me || !message.mentions.users.has(me.id)) return;
  try {
    const text = message.content.replace(new RegExp(`<@!?${me.id}>`, "g"), " ").trim();
    const where = whereOf(message.guildId, message.channel as ChannelLike, message.channelId);
    const ctx: CommandContext = {
      channel: where.channel,
      ...(where.thread ? { thread: where.thread } : {}),
      user: callerOf(message.author, message.member, message.guild),
      via: "chat",
      services,
    };
    let reply: Reply;
    if (/^\/?rl(\s|$)/i.test(text)) reply = (await dispatch({ text }, ctx, { commands: deps.commands })).reply;
    else if (deps.chat) {
      if ("sendTyping" in message.channel) await message.channel.sendTyping().catch(() => undefined);
      reply = await deps.chat(text, ctx).catch((err: unknown) => {
        services.log.error("discord: chat failed", { err });
        return errorReply(asRlError(err));
      });
    } else reply = hint(deps);
    // A channel message cannot be private: an ephemeral reply is posted as a normal one, to the person who asked.
    const rendered = await renderWithChart(pagedFor(reply, where.channel, deps), deps, { redacted: true });
    const sent = await sendWithChart(
      rendered,
      (m) => message.reply({ embeds: m.embeds, components: m.components, ...filesOption(m) }),
      services.log,
    );
    await anchorReply(reply, where, sent.id, false, deps, message.client.rest);
  } catch (err) {
    services.log.error("discord: answering a mention failed", { message: message.id, err });
  }
}
