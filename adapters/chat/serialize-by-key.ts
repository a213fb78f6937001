// Runs tasks that share a key one after another (one conversation's turns), and tasks with different keys freely.
export type Serializer = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export function createSerializer(): Serializer {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    // A failed earlier turn must not block the next one, hence the catch on the chain (not on the result).
    const run = previous.catch(() => undefined).then(task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
