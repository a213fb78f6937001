// Where each kind of notice goes, per channel and per person (their own runs), with the channel's reward alerts.
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";

export const NOTICE_KINDS = ["started", "failed", "completed", "stopped", "alerts", "digests", "checkpoint"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * Where a kind goes: the run's thread, the run's channel outside the thread, another channel of the same workspace,
 * a DM to whoever started the run, nowhere, or (checkpoint only) folded into the digest.
 */
export type Destination =
  | { to: "thread" }
  | { to: "channel" }
  | { to: "named"; channel: string }
  | { to: "dm" }
  | { to: "off" }
  | { to: "digest" };

export interface NotifySettings {
  routes: Partial<Record<NoticeKind, Destination>>;
  /** Alert once per run when its reward mean rises above / falls below these. */
  rewardAbove?: number;
  rewardBelow?: number;
  /** Alert once per run when it beats every earlier run of its environment in this channel. */
  newBest?: boolean;
  /** The training watchdog's signals as the channel tuned them (/rl notify watchdog); absent: their defaults. */
  watchdog?: Record<string, WatchdogSetting>;
}

/** One watchdog signal in a channel: switched off, or some of its numbers changed. */
export interface WatchdogSetting {
  off?: boolean;
  values?: Record<string, number>;
}

/** The channel's own settings are kept under this user id; a person's under theirs. */
export const CHANNEL_WIDE = "";

export interface NotifySettingsRepo {
  get(channel: ChannelKey, userId: string): NotifySettings;
  set(channel: ChannelKey, userId: string, settings: NotifySettings, setBy: string, at: number): void;
  clear(channel: ChannelKey, userId: string): boolean;
  /** People with their own routes in this channel. */
  people(channel: ChannelKey): string[];
  /** The best reward mean any other run of `environment` in this channel reached, if one did. */
  bestRewardBefore(channel: ChannelKey, environment: string, runId: string): number | undefined;
}

export function createNotifySettingsRepo(db: Db): NotifySettingsRepo {
  const get = db.prepare<[string, string, string, string], { settings_json: string }>(
    "SELECT settings_json FROM notify_settings WHERE platform = ? AND workspace = ? AND channel = ? AND user_id = ?",
  );
  const upsert = db.prepare(
    `INSERT INTO notify_settings (platform, workspace, channel, user_id, settings_json, set_by, set_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (platform, workspace, channel, user_id) DO UPDATE SET settings_json = excluded.settings_json, set_by = excluded.set_by, set_at = excluded.set_at`,
  );
  const remove = db.prepare(
    "DELETE FROM notify_settings WHERE platform = ? AND workspace = ? AND channel = ? AND user_id = ?",
  );
  const people = db.prepare<[string, string, string], { user_id: string }>(
    "SELECT user_id FROM notify_settings WHERE platform = ? AND workspace = ? AND channel = ? AND user_id != '' ORDER BY user_id",
  );
  const best = db.prepare<[string, string, string, string, string], { best: number | null }>(
    `SELECT MAX(d.best_reward) AS best FROM digest_state d JOIN runs r ON r.id = d.run_id
     WHERE r.platform = ? AND r.workspace = ? AND r.channel = ? AND r.environment = ? AND r.id != ?`,
  );
  return {
    get: (c, userId) => {
      const row = get.get(c.platform, c.workspace, c.channel, userId);
      return row ? (JSON.parse(row.settings_json) as NotifySettings) : { routes: {} };
    },
    set: (c, userId, settings, setBy, at) =>
      void upsert.run(c.platform, c.workspace, c.channel, userId, JSON.stringify(settings), setBy, at),
    clear: (c, userId) => remove.run(c.platform, c.workspace, c.channel, userId).changes > 0,
    people: (c) => people.all(c.platform, c.workspace, c.channel).map((r) => r.user_id),
    bestRewardBefore: (c, environment, runId) =>
      best.get(c.platform, c.workspace, c.channel, environment, runId)?.best ?? undefined,
  };
}
