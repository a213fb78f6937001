// A Previous/Next click on a paged Slack message: the page comes from SQLite and replaces the message in place.
import type { RespondFn } from "@slack/bolt";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ReplyPagesRow } from "../../db/reply-pages.ts";
import type { Services } from "../../src/services.ts";
import { pageView } from "../paginate-reply.ts";
import type { SlackMessenger } from "./slack-messenger.ts";
import type { SlackPeople } from "./slack-people.ts";
import { renderPlain, renderSlack } from "./slack-render.ts";

export interface PageClick {
  id: string;
  index: number;
  channel: ChannelKey;
  /** The clicked message: public ones are edited with chat.update, ephemeral ones through response_url. */
  messageTs?: string;
  ephemeral: boolean;
  respond?: RespondFn;
}

const sameChannel = (a: ChannelKey, b: ChannelKey): boolean =>
  a.platform === b.platform && a.workspace === b.workspace && a.channel === b.channel;

/** The kept pages a click names, or undefined after telling the clicker they are gone. */
export async function keptPages(
  click: { id: string; channel: ChannelKey; respond?: RespondFn },
  deps: { services: Services; messenger: SlackMessenger },
): Promise<ReplyPagesRow | undefined> {
  const row = deps.services.pages.get(click.id);
  // Pages are shown where they were asked for; an id brought elsewhere is as good as unknown.
  if (row && sameChannel(row.channel, click.channel)) return row;
  await deps.messenger.respond(
    click.respond,
    renderPlain("These pages are no longer kept (they last 7 days). Run the command again.", deps.services.redact),
  );
  return undefined;
}

export async function turnSlackPage(
  click: PageClick,
  deps: { services: Services; messenger: SlackMessenger; people?: SlackPeople },
): Promise<void> {
  const { messenger } = deps;
  const row = await keptPages(click, deps);
  if (!row) return;
  const index = Math.min(click.index, row.pages.length - 1);
  // The pages were redacted before they were kept (slack-run-command), so they are not redacted again.
  const page = pageView(row.pages, index, row.id);
  const message = renderSlack(page, {
    ...(row.footer ? { footer: row.footer } : {}),
    names: await deps.people?.namesIn(page),
  });
  if (!click.ephemeral && click.messageTs) {
    const updated = await messenger.update(click.channel.channel, click.messageTs, message);
    if (updated.ok) return;
  }
  await messenger.respond(click.respond, message, {
    replace: true,
    ...(click.ephemeral ? {} : { visibility: "in_channel" as const }),
  });
}
