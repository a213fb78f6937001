// When any of some files was last written: a run's own evidence of when it ended, for a bot that was not watching.
import { stat } from "node:fs/promises";

/** The newest modification time (ms) among the files that exist; undefined when none does. */
export async function newestWrite(files: readonly string[]): Promise<number | undefined> {
  const times = await Promise.all(
    files.map((f) =>
      stat(f).then(
        (s) => s.mtimeMs,
        () => undefined,
      ),
    ),
  );
  const known = times.filter((t): t is number => t !== undefined);
  return known.length ? Math.max(...known) : undefined;
}
