// A Previous/Next click on a paged Discord message: the page comes from SQLite and the message is updated in place.
import { MessageFlags } from "discord.js";
import type { ButtonInteraction } from "discord.js";
import type { ChannelKey } from "../../db/channel-key.ts";
import { statusEmbed } from "./discord-render.ts";
import { renderFor, whereOfInteraction, type DiscordDeps } from "./discord-run.ts";
import { pageView } from "../paginate-reply.ts";

const sameChannel = (a: ChannelKey, b: ChannelKey): boolean =>
  a.platform === b.platform && a.workspace === b.workspace && a.channel === b.channel;

export async function turnDiscordPage(
  i: ButtonInteraction,
  page: { id: string; index: number },
  deps: DiscordDeps,
): Promise<void> {
  const { services } = deps;
  const row = services.pages.get(page.id);
  // Pages are shown where they were asked for: brought elsewhere (a forwarded message), they do not turn, and the
  // person is told that, not that they expired.
  const refusal = !row
    ? "These pages are no longer kept (they last 7 days). Run the command again."
    : !sameChannel(row.channel, whereOfInteraction(i).channel)
      ? "These pages belong to a message in another channel and turn only there. Run the command here to page through it."
      : undefined;
  if (!row || refusal) {
    await i.reply({ embeds: [statusEmbed(refusal ?? "", services.redact)], flags: MessageFlags.Ephemeral });
    return;
  }
  const index = Math.min(page.index, row.pages.length - 1);
  // The pages were redacted before they were kept (pagedFor).
  const message = renderFor(pageView(row.pages, index, row.id), deps, { redacted: true });
  // The first page's chart image does not belong to the others.
  await i.update({ embeds: message.embeds, components: message.components, ...(index > 0 ? { attachments: [] } : {}) });
}
