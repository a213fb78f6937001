// A Previous/Next click on a paged Discord message: the page comes from SQLite and the message is updated in place.
import { MessageFlags } from "discord.js";
import type { ButtonInteraction } from "discord.js";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ReplyPagesRow } from "../../db/reply-pages.ts";
import { statusEmbed } from "./discord-render.ts";
import { renderFor, whereOfInteraction, type DiscordDeps } from "./discord-run.ts";
import { pageView } from "../paginate-reply.ts";

const sameChannel = (a: ChannelKey, b: ChannelKey): boolean =>
  a.platform === b.platform && a.workspace === b.workspace && a.channel === b.channel;

/**
 * Why kept pages cannot be shown here, if they cannot: gone, or they belong to a message in another channel (a
 * forwarded message), which the person is told rather than that they expired.
 */
export function refusalOfPages(row: ReplyPagesRow | undefined, channel: ChannelKey): string | undefined {
  if (!row) return "These pages are no longer kept (they last 7 days). Run the command again.";
  if (!sameChannel(row.channel, channel))
    return "These pages belong to a message in another channel and turn only there. Run the command here to page through it.";
  return undefined;
}

export async function turnDiscordPage(
  i: ButtonInteraction,
  page: { id: string; index: number },
  deps: DiscordDeps,
): Promise<void> {
  const { services } = deps;
  const row = services.pages.get(page.id);
  // Pages are shown where they were asked for.
  const refusal = refusalOfPages(row, whereOfInteraction(i).channel);
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
