// INTERACTION_CREATE and MESSAGE_CREATE payloads as Discord sends them, typed against the command the bot registered.
import {
  ALICE,
  IDS,
  memberJson,
  messageJson,
  nextSnowflake,
  userJson,
  type FakeUser,
  type FakeWorld,
  type Json,
} from "./discord-payloads.ts";

export interface InteractionBase {
  /** Who acts (default alice, who holds the "operators" role). */
  user?: FakeUser;
  /** Default: the #training channel. Use IDS.thread for the thread. */
  channelId?: string;
}

export type OptionValues = Record<string, string | number | boolean>;

export interface BuiltInteraction {
  id: string;
  token: string;
  payload: Json;
}

function channelOf(world: FakeWorld, channelId: string): Json {
  const found = [...world.channels, ...world.threads].find((c) => c["id"] === channelId);
  if (!found) throw new Error(`the fake guild has no channel ${channelId}`);
  return found;
}

function base(world: FakeWorld, type: number, b: InteractionBase): BuiltInteraction {
  const user = b.user ?? ALICE;
  const channelId = b.channelId ?? IDS.channel;
  const id = nextSnowflake();
  const token = `itok_${id}_${Math.random().toString(36).slice(2, 10)}`;
  return {
    id,
    token,
    payload: {
      id,
      token,
      type,
      version: 1,
      application_id: IDS.application,
      guild_id: world.guildId,
      guild: { id: world.guildId, locale: "en-US", features: [] },
      channel_id: channelId,
      channel: channelOf(world, channelId),
      member: memberJson(user),
      app_permissions: "2251799813685247",
      locale: "en-US",
      guild_locale: "en-US",
      entitlements: [],
      authorizing_integration_owners: { "0": world.guildId },
      context: 0,
      attachment_size_limit: 10_485_760,
    },
  };
}

/** The subcommand's typed options, checked against the registered /rl command as Discord would. */
function typedOptions(command: Json, sub: string, values: OptionValues, focused?: string): Json[] {
  const subs = (command["options"] ?? []) as Json[];
  const subcommand = subs.find((o) => o["name"] === sub && o["type"] === 1);
  if (!subcommand)
    throw new Error(`/rl has no subcommand "${sub}"; registered: ${subs.map((o) => String(o["name"])).join(", ")}`);
  const declared = (subcommand["options"] ?? []) as Json[];
  return Object.entries(values).map(([name, value]) => {
    const option = declared.find((o) => o["name"] === name);
    if (!option)
      throw new Error(
        `/rl ${sub} has no option "${name}"; registered: ${declared.map((o) => String(o["name"])).join(", ")}`,
      );
    return { name, type: option["type"], value, ...(name === focused ? { focused: true } : {}) };
  });
}

/** A chat-input (type 2) or autocomplete (type 4) interaction for /rl <sub>. */
export function commandInteraction(
  world: FakeWorld,
  command: Json,
  sub: string,
  values: OptionValues,
  b: InteractionBase,
  focused?: string,
): BuiltInteraction {
  const built = base(world, focused === undefined ? 2 : 4, b);
  built.payload["data"] = {
    id: command["id"],
    name: command["name"],
    type: 1,
    ...(command["guild_id"] ? { guild_id: command["guild_id"] } : {}),
    options: [{ type: 1, name: sub, options: typedOptions(command, sub, values, focused) }],
  };
  return built;
}

/** A button click (type 3, component_type 2) on a message the bot posted. */
export function buttonInteraction(
  world: FakeWorld,
  message: Json,
  customId: string,
  b: InteractionBase,
): BuiltInteraction {
  const built = base(world, 3, { ...b, channelId: b.channelId ?? String(message["channel_id"]) });
  built.payload["message"] = message;
  built.payload["data"] = { custom_id: customId, component_type: 2 };
  return built;
}

/** MESSAGE_CREATE from `author` in a guild channel, optionally mentioning the bot. */
export function userMessage(
  world: FakeWorld,
  author: FakeUser,
  content: string,
  channelId: string,
  mentions: FakeUser[],
): Json {
  const message = messageJson(nextSnowflake(), { channelId, guildId: world.guildId, author, content, mentions });
  return {
    ...message,
    member: memberJson(author, false),
    mentions: mentions.map((u) => ({ ...userJson(u), member: memberJson(u, false) })),
  };
}
