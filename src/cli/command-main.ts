// What every rl-chatops program does around its verb: reads the command line, answers --help, loads .env, and turns
// the outcome into the exit code (2 for a usage error, with the usage; 1 for a failure, saying why). The full
// command (cli.ts) and the one-file programs bin/rl-chatops.js starts for exec and scan share it.
import { isRlError } from "../errors.ts";
import type { SettingNames } from "./load-dot-env.ts";
import { parseCommandLine, UsageError, type CommandLine } from "./parse-command-line.ts";
import { USAGE } from "./usage.ts";

/**
 * A reader that stops early (`rl-chatops scan DIR | head`) closes the pipe: what is left of a one-shot command's
 * output has nowhere to go, which is no failure of the command. It ends with its own exit code, quietly.
 */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
}

/** A program's verb, and where the .env check gets the settings' names from. */
export interface CommandProgram {
  run: (line: CommandLine) => Promise<number>;
  settingNames: SettingNames;
}

async function main(argv: string[], { run, settingNames }: CommandProgram): Promise<number> {
  const line = parseCommandLine(argv);
  if (line.verb !== "run" || line.options.help) endQuietlyOnClosedPipe();
  if (line.options.help || line.verb === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { loadDotEnv } = await import("./load-dot-env.ts");
  for (const warning of await loadDotEnv(process.cwd(), process.env, settingNames))
    process.stderr.write(`rl-chatops: ${warning}\n`);
  return run(line);
}

/** Runs the command line `argv` with `program` and sets the process's exit code from how it went. */
export function runCommandMain(argv: string[], program: CommandProgram): void {
  // A stray rejection from a platform SDK is logged, not fatal: the bot keeps serving the other platforms.
  process.on("unhandledRejection", (reason) => {
    process.stderr.write(`unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}\n`);
  });
  main(argv, program).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      if (err instanceof UsageError) {
        process.stderr.write(`${err.message}\n${USAGE}\n`);
        process.exitCode = 2;
      } else if (isRlError(err)) {
        process.stderr.write(`${err.message}\n`);
        process.exitCode = 1;
      } else {
        process.stderr.write(`rl-chatops failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        process.exitCode = 1;
      }
    },
  );
}
