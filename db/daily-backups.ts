// The bot's own backups: one a day in data/backups (rl-chatops-YYYY-MM-DD.db), the newest 7 kept.
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { backupDatabase } from "./backup-database.ts";
import type { Db } from "./open-database.ts";

export const BACKUPS_KEPT = 7;
const NAME = /^rl-chatops-(\d{4}-\d{2}-\d{2})\.db$/;

export interface DailyBackupsDeps {
  db: Db;
  dir: string;
  now: () => number;
  keep?: number;
}

/** Back up once for today if not done yet, then prune; resolves with the file written, if any. */
export async function backUpToday(deps: DailyBackupsDeps): Promise<string | undefined> {
  const day = new Date(deps.now()).toISOString().slice(0, 10);
  let names: string[] = [];
  try {
    names = readdirSync(deps.dir).filter((n) => NAME.test(n));
  } catch {
    // no backups yet
  }
  const file = `rl-chatops-${day}.db`;
  let written: string | undefined;
  if (!names.includes(file)) {
    written = await backupDatabase(deps.db, path.join(deps.dir, file));
    names.push(file);
  }
  // ISO dates sort as text: the oldest go first.
  for (const old of names.sort().slice(0, Math.max(0, names.length - (deps.keep ?? BACKUPS_KEPT))))
    rmSync(path.join(deps.dir, old), { force: true });
  return written;
}

/** At start and then every hour, make today's backup if it is missing; stop() waits for one in progress. */
export function scheduleDailyBackups(deps: DailyBackupsDeps & { onError: (err: unknown) => void; everyMs?: number }) {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= backUpToday(deps)
      .catch(deps.onError)
      .finally(() => (running = undefined));
  };
  tick();
  const timer = setInterval(tick, deps.everyMs ?? 60 * 60_000);
  timer.unref();
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
