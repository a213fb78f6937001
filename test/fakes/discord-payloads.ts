// Real-shaped Discord API objects for the fake (users, guild, channels, members, messages), with fake snowflake ids.

/** Snowflakes must look real (17-19 digits): @discordjs/rest derives rate-limit buckets from them. */
export const IDS = {
  application: "1100000000000000001",
  bot: "1100000000000000001",
  guild: "1100000000000000100",
  channel: "1100000000000000200",
  thread: "1100000000000000201",
  command: "1100000000000000250",
  operatorsRole: "1100000000000000300",
  alice: "1100000000000000401",
  bob: "1100000000000000402",
} as const;

let counter = 1_200_000_000_000_000_000n;

/** A fresh snowflake, unique within this process. */
export function nextSnowflake(): string {
  counter += 1n;
  return counter.toString();
}

export interface FakeUser {
  id: string;
  username: string;
  /** Role ids this user holds in the fake guild. */
  roles: string[];
  bot?: boolean;
}

export const BOT_USER: FakeUser = { id: IDS.bot, username: "rl-bot", roles: [], bot: true };
/** Holds the "operators" role. */
export const ALICE: FakeUser = { id: IDS.alice, username: "alice", roles: [IDS.operatorsRole] };
/** Holds no role. */
export const BOB: FakeUser = { id: IDS.bob, username: "bob", roles: [] };

export type Json = Record<string, unknown>;

export function userJson(user: FakeUser): Json {
  return {
    id: user.id,
    username: user.username,
    global_name: user.username,
    discriminator: "0",
    avatar: null,
    bot: user.bot ?? false,
    system: false,
    public_flags: 0,
    flags: 0,
  };
}

/** A guild member as interactions carry it (with user and permissions). */
export function memberJson(user: FakeUser, withUser = true): Json {
  return {
    ...(withUser ? { user: userJson(user) } : {}),
    nick: null,
    avatar: null,
    roles: user.roles,
    joined_at: "2024-01-01T00:00:00.000000+00:00",
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    permissions: "2251799813685247",
    communication_disabled_until: null,
  };
}

export function roleJson(id: string, name: string, position: number): Json {
  return {
    id,
    name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: position === 0 ? "1071698660929" : "2251799813685247",
    managed: false,
    mentionable: false,
    flags: 0,
  };
}

export function textChannelJson(id: string, name: string, guildId: string): Json {
  return {
    id,
    type: 0,
    guild_id: guildId,
    name,
    position: 0,
    permission_overwrites: [],
    parent_id: null,
    nsfw: false,
    topic: null,
    last_message_id: null,
    rate_limit_per_user: 0,
    flags: 0,
  };
}

export function threadJson(id: string, name: string, parentId: string, guildId: string): Json {
  return {
    id,
    type: 11,
    guild_id: guildId,
    parent_id: parentId,
    name,
    owner_id: IDS.alice,
    last_message_id: null,
    rate_limit_per_user: 0,
    message_count: 0,
    member_count: 1,
    flags: 0,
    thread_metadata: {
      archived: false,
      auto_archive_duration: 1440,
      archive_timestamp: "2024-01-01T00:00:00.000000+00:00",
      locked: false,
      create_timestamp: "2024-01-01T00:00:00.000000+00:00",
    },
  };
}

export interface FakeWorld {
  guildId: string;
  guildName: string;
  channels: Json[];
  threads: Json[];
  roles: Json[];
  users: FakeUser[];
}

export function defaultWorld(): FakeWorld {
  return {
    guildId: IDS.guild,
    guildName: "RL Lab",
    channels: [textChannelJson(IDS.channel, "training", IDS.guild)],
    threads: [threadJson(IDS.thread, "experiments", IDS.channel, IDS.guild)],
    roles: [roleJson(IDS.guild, "@everyone", 0), roleJson(IDS.operatorsRole, "operators", 1)],
    users: [BOT_USER, ALICE, BOB],
  };
}

/** GUILD_CREATE: enough for discord.js to cache the guild, its channels, threads, roles and members. */
export function guildCreateJson(world: FakeWorld): Json {
  return {
    id: world.guildId,
    name: world.guildName,
    icon: null,
    splash: null,
    discovery_splash: null,
    owner_id: IDS.alice,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: "en-US",
    nsfw_level: 0,
    max_members: 500000,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    joined_at: "2024-01-01T00:00:00.000000+00:00",
    large: false,
    unavailable: false,
    member_count: world.users.length,
    roles: world.roles,
    emojis: [],
    stickers: [],
    channels: world.channels,
    threads: world.threads,
    members: world.users.map((u) => memberJson(u)),
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
  };
}

export interface MessageInit {
  channelId: string;
  guildId?: string;
  author: FakeUser;
  content?: string;
  embeds?: unknown[];
  attachments?: unknown[];
  components?: unknown[];
  flags?: number;
  mentions?: FakeUser[];
  messageReference?: unknown;
  webhookId?: string;
  applicationId?: string;
  interactionMetadata?: unknown;
}

/** A message object as REST answers and MESSAGE_CREATE carry it. */
export function messageJson(id: string, m: MessageInit): Json {
  return {
    id,
    type: m.messageReference ? 19 : 0,
    channel_id: m.channelId,
    ...(m.guildId ? { guild_id: m.guildId } : {}),
    author: userJson(m.author),
    content: m.content ?? "",
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: (m.mentions ?? []).map(userJson),
    mention_roles: [],
    attachments: m.attachments ?? [],
    embeds: m.embeds ?? [],
    components: m.components ?? [],
    pinned: false,
    flags: m.flags ?? 0,
    ...(m.messageReference ? { message_reference: m.messageReference } : {}),
    ...(m.webhookId ? { webhook_id: m.webhookId } : {}),
    ...(m.applicationId ? { application_id: m.applicationId } : {}),
    ...(m.interactionMetadata ? { interaction_metadata: m.interactionMetadata } : {}),
  };
}
