// Config fields cross from the discovery process to the bot once each: most environments inherit the same base fields
// (group_size, max_token_length, ... with the same descriptions), and a thousand copies of them kept in the bot's heap
// made every young-generation collection after a scan copy megabytes, in pauses of 8-15 ms on the bot's thread.
import type { ConfigField, EnvironmentInfo } from "../types.ts";

/** An environment as it crosses: its fields as places in the table both sides keep. */
export type SentEnvironment = Omit<EnvironmentInfo, "fields"> & { fieldIds: number[] };

/** What a batch carries: its environments, and the fields the bot's table does not hold yet (they go on its end). */
export interface SentBatch {
  environments: SentEnvironment[];
  newFields: ConfigField[];
}

/** The discovery process's side: numbers each distinct field (by content) the first time it is sent. */
export function createFieldSender(): (environments: EnvironmentInfo[]) => SentBatch {
  const ids = new Map<string, number>();
  return (environments) => {
    const newFields: ConfigField[] = [];
    const sent = environments.map(({ fields, ...rest }) => ({
      ...rest,
      fieldIds: fields.map((field) => {
        const key = JSON.stringify(field);
        let id = ids.get(key);
        if (id === undefined) {
          id = ids.size;
          ids.set(key, id);
          newFields.push(field);
        }
        return id;
      }),
    }));
    return { environments: sent, newFields };
  };
}

/**
 * The bot's side, one per discovery process (a new one numbers from 0 again): environments with their fields put
 * back, one object per distinct field shared by every environment that has it (nothing changes a field once found).
 */
export function createFieldReceiver(): (batch: SentBatch) => EnvironmentInfo[] {
  const table: ConfigField[] = [];
  return ({ environments, newFields }) => {
    table.push(...newFields);
    return environments.map(({ fieldIds, ...rest }) => ({
      ...rest,
      fields: fieldIds.map((id) => {
        const field = table[id];
        if (!field) throw new Error(`discovery sent field ${id}, which it never described`);
        return field;
      }),
    }));
  };
}
