// A "Post to channel" click on a private answer: the kept answer is posted for everyone, saying who shared it.
import type { RespondFn } from "@slack/bolt";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { Caller } from "../../commands/types.ts";
import type { Services } from "../../src/services.ts";
import { pageView, publicPages } from "../paginate-reply.ts";
import type { SlackMessenger } from "./slack-messenger.ts";
import type { SlackPeople } from "./slack-people.ts";
import { renderPlain, renderSlack } from "./slack-render.ts";
import { mentionOf } from "./slack-run-command.ts";
import { keptPages } from "./slack-page.ts";

export interface ShareClick {
  id: string;
  /** The page the person was looking at: the channel is shown that one. */
  index: number;
  channel: ChannelKey;
  user: Caller;
  /** The thread the private answer was in: the shared one goes there too. */
  thread?: string;
  respond?: RespondFn;
}

export async function shareSlackAnswer(
  click: ShareClick,
  deps: { services: Services; messenger: SlackMessenger; people?: SlackPeople },
): Promise<void> {
  const { services, messenger } = deps;
  const row = await keptPages(click, deps);
  if (!row) return;
  // The kept pages were redacted before they were kept; the public copy is kept apart, so its page buttons never
  // offer to post it again.
  const pages = publicPages(row.pages);
  const footer = services.redact(`Shared by ${mentionOf(click.user)}`);
  const index = Math.min(click.index, pages.length - 1);
  const view =
    pages.length > 1 ? pageView(pages, index, services.pages.save(click.channel, pages, footer)) : (pages[0] ?? {});
  const message = renderSlack(view, { footer, names: await deps.people?.namesIn(view) });
  const posted = await messenger.post(click.channel.channel, message, click.thread);
  // The private copy goes once it is in the channel; where the bot may not post, response_url still can.
  const shown = posted.ok ? posted : await messenger.respond(click.respond, message, { visibility: "in_channel" });
  if (shown.ok) await messenger.dismiss(click.respond);
  else
    await messenger.respond(
      click.respond,
      renderPlain(`Slack did not accept the post (${shown.error}); the answer stays here.`, services.redact),
    );
}
