// People's names for Slack messages: a run's starter or stopper is shown by name, never as a <@U…> mention, since a
// mention notifies the person; only the asker being answered is mentioned (the footer of a command's answer).
import type { webApi } from "@slack/bolt";
import type { Logger } from "../../src/log.ts";
import { peopleIn, type Reply } from "../../src/reply.ts";
import { slackErrorCode } from "./slack-error-code.ts";

export type PeopleNames = ReadonlyMap<string, string>;

export interface SlackPeople {
  /** The names of the people a reply names (users.info, needs users:read), by id; an id Slack does not answer for is left out. */
  namesIn(reply: Reply): Promise<PeopleNames>;
  /**
   * The person as every message names them: the name users.info gives (the one a reply's people are shown by), else
   * the name the event carried. "Confirmed by" and "asked by" then name one person one way.
   */
  named<C extends { id: string; name?: string }>(caller: C): Promise<C>;
}

/** Names change rarely; an hour keeps lists fast without showing an old name for long. */
const TTL_MS = 60 * 60_000;
const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;

export function createSlackPeople(client: webApi.WebClient, log: Logger, now: () => number = Date.now): SlackPeople {
  /** A name, or undefined for someone Slack said it does not know (user_not_found), which is not asked again soon. */
  const cache = new Map<string, { name: string | undefined; at: number }>();
  let warned = false;
  const lookUp = async (id: string): Promise<string | undefined> => {
    const hit = cache.get(id);
    if (hit && now() - hit.at < TTL_MS) return hit.name;
    try {
      const { user } = await client.users.info({ user: id });
      const name = user?.profile?.display_name || user?.profile?.real_name || user?.real_name || user?.name;
      if (!name) return undefined;
      cache.set(id, { name, at: now() });
      return name;
    } catch (err) {
      const error = slackErrorCode(err);
      if (error === "user_not_found") {
        cache.set(id, { name: undefined, at: now() });
        return undefined;
      }
      // Logged once: without users:read every look-up fails the same way, and the id is shown instead.
      if (!warned)
        log.warn("slack: could not look up a person's name; showing the id", {
          id,
          error,
          ...(error === "missing_scope" ? { hint: "add the users:read scope to the Slack app and reinstall it" } : {}),
        });
      warned = true;
      return hit?.name;
    }
  };
  return {
    async named(caller) {
      const name = SLACK_USER.test(caller.id) ? await lookUp(caller.id) : undefined;
      return name ? { ...caller, name } : caller;
    },
    async namesIn(reply) {
      const ids = peopleIn(JSON.stringify([reply.title, reply.text, reply.fields, reply.blocks])).filter((id) =>
        SLACK_USER.test(id),
      );
      const names = new Map<string, string>();
      await Promise.all(
        ids.map(async (id) => {
          const name = await lookUp(id);
          if (name) names.set(id, name);
        }),
      );
      return names;
    },
  };
}
