// --timeout SECONDS of exec and stop: how long the owner of the data folder has to take the command.
import { UsageError, type CommandLine } from "./parse-command-line.ts";

/** The timeout in milliseconds (default 30 s); a usage error for anything but a number of seconds above 0. */
export function ackTimeoutOf(line: CommandLine): number {
  const value = line.options.timeout;
  if (value === undefined) return 30_000;
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!(seconds > 0))
    throw new UsageError(
      `--timeout takes a number of seconds above 0, e.g. rl-chatops ${line.verb} ${line.verb === "exec" ? '"/rl status" ' : ""}--timeout 10.`,
    );
  return seconds * 1000;
}
