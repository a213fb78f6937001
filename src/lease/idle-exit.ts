// When the background supervisor lets go of the data folder: once it has had nothing to do for the idle time.
export interface IdleWatchOptions {
  /** How long it must stay idle (RL_IDLE_EXIT_MINUTES); 0: as soon as it is. */
  idleMs: number;
  /** Runs live or queued, a command being answered, a notice still to write: anything that keeps it. */
  isBusy: () => boolean;
  /** Called once, when the idle time has passed. */
  onIdle: () => void;
  pollMs?: number;
  now?: () => number;
}

export interface IdleWatch {
  /** Look now (after a command is answered), besides the timer. */
  check(): void;
  stop(): void;
}

export function watchIdle(options: IdleWatchOptions): IdleWatch {
  const now = options.now ?? Date.now;
  let idleSince: number | undefined;
  let done = false;
  const check = () => {
    if (done) return;
    if (options.isBusy()) {
      idleSince = undefined;
      return;
    }
    idleSince ??= now();
    if (now() - idleSince < options.idleMs) return;
    done = true;
    clearInterval(timer);
    options.onIdle();
  };
  const timer = setInterval(check, options.pollMs ?? 1000);
  return {
    check,
    stop() {
      done = true;
      clearInterval(timer);
    },
  };
}
