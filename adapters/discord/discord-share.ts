// A "Post to channel" click on a private answer: the kept answer is posted for everyone, saying who shared it.
import { MessageFlags } from "discord.js";
import type { ButtonInteraction } from "discord.js";
import { pageView, publicPages } from "../paginate-reply.ts";
import { refusalOfPages } from "./discord-page.ts";
import { statusEmbed } from "./discord-render.ts";
import { renderFor, whereOfInteraction, type DiscordDeps } from "./discord-run.ts";

export async function shareDiscordAnswer(
  i: ButtonInteraction,
  share: { id: string; index: number },
  deps: DiscordDeps,
): Promise<void> {
  const { services } = deps;
  const { channel } = whereOfInteraction(i);
  const row = services.pages.get(share.id);
  const refusal = refusalOfPages(row, channel);
  if (!row || refusal) {
    await i.reply({ embeds: [statusEmbed(refusal ?? "", services.redact)], flags: MessageFlags.Ephemeral });
    return;
  }
  // The public copy is kept apart, so its page buttons never offer to post it again.
  const pages = publicPages(row.pages);
  const index = Math.min(share.index, pages.length - 1);
  const view = pages.length > 1 ? pageView(pages, index, services.pages.save(channel, pages)) : (pages[0] ?? {});
  // The kept pages were redacted before they were kept (pagedFor).
  const message = renderFor(view, deps, { redacted: true });
  // The private copy closes first (its buttons gone), then the answer goes to the channel naming who shared it.
  await i.update({ embeds: [statusEmbed("Posted to the channel.", services.redact)], components: [] });
  await i.followUp({
    content: `Shared by <@${i.user.id}>`,
    allowedMentions: { parse: [] },
    embeds: message.embeds,
    components: message.components,
  });
}
