// The rl-chatops command line: run the bot, run one command (exec), or show what discovery finds (scan).
import path from "node:path";
import { renderText } from "../adapters/render-text.ts";
import { CONSOLE_CHANNEL } from "../adapters/console.ts";
import { dispatch } from "../commands/dispatch.ts";
import { loadConfig } from "./config.ts";
import { createEnvironmentScanner } from "./environments/scanner.ts";
import { toScanJson } from "./environments/scan-json.ts";
import { isRlError } from "./errors.ts";
import { loadLockedFields } from "./locked-fields.ts";
import { startBot } from "./main.ts";
import { createServices } from "./services.ts";

const USAGE = `Usage:
  rl-chatops [--console]                        run the bot (the terminal console when no platform token is set)
  rl-chatops exec "<command>" [--channel ID] [--user ID] [--json]
                                                run one /rl command and print the reply
  rl-chatops scan DIR [--json]                  show the environments discovery finds in DIR`;

interface Flags {
  positional: string[];
  options: Record<string, string | true>;
}

function parseArgv(argv: string[]): Flags {
  const flags: Flags = { positional: [], options: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith("--")) {
      const name = a.slice(2);
      if (name === "json" || name === "console" || name === "help") flags.options[name] = true;
      else {
        const value = argv[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value.`);
        flags.options[name] = value;
      }
    } else flags.positional.push(a);
  }
  return flags;
}

class UsageError extends Error {}

async function exec(flags: Flags): Promise<number> {
  const text = flags.positional[1];
  if (!text) throw new UsageError('exec needs the command text, e.g. rl-chatops exec "/rl envs".');
  const services = createServices(loadConfig());
  try {
    const channel = typeof flags.options.channel === "string" ? { ...CONSOLE_CHANNEL, channel: flags.options.channel } : CONSOLE_CHANNEL;
    const user = typeof flags.options.user === "string" ? flags.options.user : (process.env.USER ?? "local");
    const { reply, ok } = await dispatch({ text }, { channel, user: { id: user, name: user }, via: "cli", services }, { confirmed: true });
    if (flags.options.json) {
      const out = ok ? (reply.data ?? { title: reply.title, text: reply.text }) : { error: reply.error };
      process.stdout.write(`${services.redact(JSON.stringify(out, null, 2))}\n`);
    } else {
      (ok ? process.stdout : process.stderr).write(`${services.redact(renderText(reply))}\n`);
    }
    if (ok) return 0;
    return reply.error?.code === "USAGE" ? 2 : 1;
  } finally {
    await services.close();
  }
}

async function scan(flags: Flags): Promise<number> {
  const dir = flags.positional[1];
  if (!dir) throw new UsageError("scan needs a folder, e.g. rl-chatops scan ./environments.");
  const config = loadConfig();
  const scanner = createEnvironmentScanner({
    lockedEnv: loadLockedFields(config.lockedFieldsPath).env,
    recursive: config.scanRecursive,
    maxFileBytes: config.scanMaxFileBytes,
  });
  const result = await scanner.scan(path.resolve(dir));
  if (flags.options.json) {
    process.stdout.write(`${JSON.stringify(toScanJson(result), null, 2)}\n`);
  } else {
    for (const e of result.environments) {
      process.stdout.write(`${e.name}  ${e.className}  ${e.filePath}\n  ${e.description}\n  ${e.fields.length} fields (config class ${e.configClass})\n`);
    }
    for (const w of result.warnings) process.stderr.write(`warning: ${w.filePath}: ${w.message}\n`);
  }
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const flags = parseArgv(argv);
  const verb = flags.positional[0];
  if (flags.options.help || verb === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (verb === "exec") return exec(flags);
  if (verb === "scan") return scan(flags);
  if (verb !== undefined) throw new UsageError(`Unknown command "${verb}".`);
  const bot = await startBot(loadConfig(), { console: flags.options.console === true });
  const shutdown = () => void bot.stop();
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  await bot.done;
  return 0;
}

// A stray rejection from a platform SDK is logged, not fatal: the bot keeps serving the other platforms.
process.on("unhandledRejection", (reason) => {
  process.stderr.write(`unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}\n`);
});

main(process.argv.slice(2)).then(
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
