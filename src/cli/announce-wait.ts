// While exec waits for a slow answer, one line on stderr says what it waits for (a stop waits out its processes).
import type { Config } from "../config.ts";

/** What a command that has not answered yet is waiting for, in words a person at the terminal can act on. */
export function describeWait(text: string, config: Pick<Config, "stopGraceMs" | "readyTimeoutMs">): string {
  const verb = /^\/?rl\s+(\w+)/i.exec(text.trim())?.[1]?.toLowerCase();
  if (verb === "stop")
    return `stopping: waiting for the run's processes to exit (each gets ${config.stopGraceMs / 1000} s after SIGTERM, RL_STOP_GRACE_SECONDS, before it is killed)…`;
  if (verb === "start" || verb === "resume" || verb === "rerun" || verb === "fork")
    return `starting: waiting for each process of the run to be ready (up to ${config.readyTimeoutMs / 1000} s each, RL_READY_TIMEOUT_SECONDS)…`;
  return `waiting for the answer to ${text.trim()}…`;
}

/**
 * Write `describeWait` once to `write` when `answer` has not settled within `afterMs`: a quick command prints nothing
 * more than its answer. Resolves as `answer` does. The line may be made only then (it may need the settings).
 */
export async function announceWait<T>(
  answer: Promise<T>,
  line: string | (() => Promise<string>),
  write: (text: string) => void,
  afterMs = 1000,
): Promise<T> {
  let settled = false;
  const announce = async () => {
    const text = typeof line === "string" ? line : await line().catch(() => undefined);
    if (text !== undefined && !settled) write(`rl-chatops: ${text}\n`);
  };
  const timer = setTimeout(() => void announce(), afterMs);
  try {
    return await answer;
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}
