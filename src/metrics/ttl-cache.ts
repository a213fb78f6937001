// A tiny time-to-live cache, so status answers can reuse a WandB reply for a minute; the clock is injected.

export interface TtlCacheOptions {
  ttlMs: number;
  /** Injected so tests can move time without sleeping. */
  now?: () => number;
}

export interface TtlCache<T> {
  /** The value stored under key, or undefined once it is older than ttlMs. */
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  delete(key: string): void;
  clear(): void;
}

export function createTtlCache<T>({ ttlMs, now = Date.now }: TtlCacheOptions): TtlCache<T> {
  const entries = new Map<string, { value: T; expiresAt: number }>();

  // Expired entries are dropped on write too, so a long-lived bot asking about many runs does not grow forever.
  const prune = (at: number): void => {
    for (const [key, entry] of entries) if (entry.expiresAt <= at) entries.delete(key);
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value) {
      const at = now();
      prune(at);
      entries.set(key, { value, expiresAt: at + ttlMs });
    },
    delete(key) {
      entries.delete(key);
    },
    clear() {
      entries.clear();
    },
  };
}
