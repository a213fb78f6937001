// The signals that came while the full command was loading: bin/rl-chatops.js keeps them from its first line, so a
// SIGTERM a moment after start-up is the bot's to handle (a stop in order), not the end of the process by the signal.

interface Early {
  signals: NodeJS.Signals[];
  keep: (signal: NodeJS.Signals) => void;
}

const KEY = Symbol.for("rl-chatops.early-signals");

/** The signals kept so far, once; from then on they are the caller's (bin's keeper is removed). */
export function takeEarlySignals(): NodeJS.Signals[] {
  const holder = process as unknown as Record<symbol, Early | undefined>;
  const early = holder[KEY];
  if (!early) return [];
  holder[KEY] = undefined;
  process.off("SIGINT", early.keep);
  process.off("SIGTERM", early.keep);
  return early.signals;
}

/**
 * For a command that handles no signal itself: its default again, and one kept meanwhile acts now (the process ends
 * as that signal ends it).
 */
export function releaseEarlySignals(): void {
  const [first] = takeEarlySignals();
  if (first) process.kill(process.pid, first);
}
