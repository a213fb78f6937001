// Per-channel state: the selected environment, whether its digests show samples, and the config values set for each
// environment in that channel.
import type { ChannelKey } from "./channel-key.ts";
import type { Db } from "./open-database.ts";
import { parseConfigJson, stringifyConfigJson } from "./config-json.ts";

export type ConfigValues = Record<string, unknown>;

export interface ChannelsRepo {
  selectedEnvironment(key: ChannelKey): string | undefined;
  selectEnvironment(key: ChannelKey, environment: string): void;
  configValues(key: ChannelKey, environment: string): ConfigValues;
  setConfigValue(key: ChannelKey, environment: string, field: string, value: unknown): ConfigValues;
  resetConfig(key: ChannelKey, environment: string, field?: string): ConfigValues;
  /** Whether the channel's digests carry a sample of each run's latest step (off unless turned on). */
  digestSamples(key: ChannelKey): boolean;
  setDigestSamples(key: ChannelKey, on: boolean): void;
}

export function createChannelsRepo(db: Db, now: () => number = Date.now): ChannelsRepo {
  const getSelected = db.prepare<[string, string, string], { environment: string | null }>(
    "SELECT environment FROM channels WHERE platform = ? AND workspace = ? AND channel = ?",
  );
  const upsertSelected = db.prepare(
    `INSERT INTO channels (platform, workspace, channel, environment, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (platform, workspace, channel) DO UPDATE SET environment = excluded.environment, updated_at = excluded.updated_at`,
  );
  // Prepared when first used: a repo made on a database of an earlier schema (a migration's test) still opens.
  type Statement<P extends unknown[], R> = ReturnType<typeof db.prepare<P, R>>;
  let getDigestSamples: Statement<[string, string, string], { digest_samples: number }> | undefined;
  let upsertDigestSamples: Statement<[string, string, string, number, number], unknown> | undefined;
  const readDigestSamples = () =>
    (getDigestSamples ??= db.prepare<[string, string, string], { digest_samples: number }>(
      "SELECT digest_samples FROM channels WHERE platform = ? AND workspace = ? AND channel = ?",
    ));
  // A channel with no environment chosen yet has no row: the setting makes one, the environment left unset.
  const writeDigestSamples = () =>
    (upsertDigestSamples ??= db.prepare<[string, string, string, number, number], unknown>(
      `INSERT INTO channels (platform, workspace, channel, environment, digest_samples, updated_at) VALUES (?, ?, ?, NULL, ?, ?)
     ON CONFLICT (platform, workspace, channel) DO UPDATE SET digest_samples = excluded.digest_samples, updated_at = excluded.updated_at`,
    ));
  const getValues = db.prepare<[string, string, string, string], { values_json: string }>(
    "SELECT values_json FROM channel_configs WHERE platform = ? AND workspace = ? AND channel = ? AND environment = ?",
  );
  const upsertValues = db.prepare(
    `INSERT INTO channel_configs (platform, workspace, channel, environment, values_json, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (platform, workspace, channel, environment) DO UPDATE SET values_json = excluded.values_json, updated_at = excluded.updated_at`,
  );

  const read = (key: ChannelKey, environment: string): ConfigValues => {
    const row = getValues.get(key.platform, key.workspace, key.channel, environment);
    return row ? (parseConfigJson(row.values_json) as ConfigValues) : {};
  };
  const write = (key: ChannelKey, environment: string, values: ConfigValues): ConfigValues => {
    upsertValues.run(key.platform, key.workspace, key.channel, environment, stringifyConfigJson(values), now());
    return values;
  };

  return {
    selectedEnvironment: (key) => getSelected.get(key.platform, key.workspace, key.channel)?.environment ?? undefined,
    selectEnvironment: (key, environment) => {
      upsertSelected.run(key.platform, key.workspace, key.channel, environment, now());
    },
    digestSamples: (key) => readDigestSamples().get(key.platform, key.workspace, key.channel)?.digest_samples === 1,
    setDigestSamples: (key, on) => {
      writeDigestSamples().run(key.platform, key.workspace, key.channel, on ? 1 : 0, now());
    },
    configValues: read,
    setConfigValue: (key, environment, field, value) =>
      db.transaction(() => write(key, environment, { ...read(key, environment), [field]: value })).immediate(),
    resetConfig: (key, environment, field) =>
      db
        .transaction(() => {
          if (field === undefined) return write(key, environment, {});
          const values = read(key, environment);
          delete values[field];
          return write(key, environment, values);
        })
        .immediate(),
  };
}
