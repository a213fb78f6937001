// A message edited in place to show progress: edits go one at a time, the latest line wins, and none lands after close().
export interface ProgressMessage {
  show(line: string): Promise<void>;
  /** Waits for the edit in flight; later lines are dropped so they cannot overwrite the final answer. */
  close(): Promise<void>;
}

export function createProgressMessage(edit: (line: string) => Promise<unknown>): ProgressMessage {
  let chain: Promise<void> = Promise.resolve();
  let latest: string | undefined;
  let closed = false;
  return {
    show(line) {
      if (closed) return Promise.resolve();
      latest = line;
      // Lines that arrive while an edit is in flight collapse into one edit with the newest line.
      chain = chain.then(async () => {
        if (closed || latest === undefined) return;
        const next = latest;
        latest = undefined;
        await edit(next);
      });
      return chain;
    },
    async close() {
      closed = true;
      await chain;
    },
  };
}
