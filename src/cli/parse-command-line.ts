// Reads rl-chatops's argv with Node's strict util.parseArgs: each verb accepts its own options and number of
// arguments, and anything else is a usage error that names the option and what the verb takes.
import { parseArgs } from "node:util";

export type Verb =
  "run" | "exec" | "mcp" | "supervise" | "stop" | "notices" | "scan" | "backup" | "prune" | "stack" | "help";

export interface CommandLine {
  verb: Verb;
  /** The verb's arguments, after the verb itself. */
  args: string[];
  options: {
    console?: boolean;
    help?: boolean;
    json?: boolean;
    channel?: string;
    user?: string;
    timeout?: string;
    "request-id"?: string;
    follow?: boolean;
    /** stack check: the entry to show a run of. */
    entry?: string;
    /** mcp: serve Streamable HTTP instead of stdio, on --host (default 127.0.0.1) and --port. */
    http?: boolean;
    host?: string;
    port?: string;
    /** mcp --http: the file of bearer tokens' hashes and the people they stand for. */
    tokens?: string;
    /** mcp: make a bearer token for this person, store its hash, print it once. */
    "new-token"?: string;
    /** supervise: the pipe exec reads the supervisor's start-up report from. */
    "report-fd"?: string;
    /** prune: runs that ended longer ago than this (90d, 12w, 36h). */
    "older-than"?: string;
    /** prune: list what would go, change nothing. */
    "dry-run"?: boolean;
    /** prune: move the files into this folder instead of deleting them. */
    archive?: string;
  };
}

/** A command line that cannot be run as written; the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {}

interface OptionSpec {
  type: "string" | "boolean";
}

const HELP: Record<string, OptionSpec> = { help: { type: "boolean" } };
const JSON_OUTPUT: Record<string, OptionSpec> = { json: { type: "boolean" } };
/** A client of the owner of the data folder (exec, mcp): where it acts, as whom, and how long the owner has. */
const CLIENT: Record<string, OptionSpec> = {
  channel: { type: "string" },
  user: { type: "string" },
  timeout: { type: "string" },
};

/** What each verb accepts: its options and at most how many arguments (cli.ts says what a missing one is). */
const VERBS: Record<Verb, { options: Record<string, OptionSpec>; most: number; example: string }> = {
  run: { options: { ...HELP, console: { type: "boolean" } }, most: 0, example: "rl-chatops --console" },
  exec: {
    options: {
      ...HELP,
      ...JSON_OUTPUT,
      ...CLIENT,
      "request-id": { type: "string" },
    },
    most: 1,
    example: 'rl-chatops exec "/rl envs" --channel C1',
  },
  mcp: {
    options: {
      ...HELP,
      ...CLIENT,
      http: { type: "boolean" },
      host: { type: "string" },
      port: { type: "string" },
      tokens: { type: "string" },
      "new-token": { type: "string" },
    },
    most: 0,
    example: "rl-chatops mcp --channel lab",
  },
  supervise: { options: { ...HELP, "report-fd": { type: "string" } }, most: 0, example: "rl-chatops supervise" },
  stop: { options: { ...HELP, timeout: { type: "string" } }, most: 0, example: "rl-chatops stop --timeout 10" },
  notices: { options: { ...HELP, follow: { type: "boolean" } }, most: 0, example: "rl-chatops notices --follow" },
  scan: { options: { ...HELP, ...JSON_OUTPUT }, most: 1, example: "rl-chatops scan ./environments --json" },
  backup: { options: HELP, most: 1, example: "rl-chatops backup data/backups/today.db" },
  prune: {
    options: {
      ...HELP,
      "older-than": { type: "string" },
      "dry-run": { type: "boolean" },
      archive: { type: "string" },
    },
    most: 0,
    example: "rl-chatops prune --older-than 90d --dry-run",
  },
  stack: {
    options: { ...HELP, ...JSON_OUTPUT, entry: { type: "string" } },
    most: 2,
    example: "rl-chatops stack check ./stack.yaml --entry toy",
  },
  help: { options: HELP, most: 0, example: "rl-chatops --help" },
};

const isVerb = (word: string): word is Verb => Object.hasOwn(VERBS, word) && word !== "run";

const optionsOf = (verb: Verb): string =>
  Object.entries(VERBS[verb].options)
    .map(([name, spec]) => (spec.type === "string" ? `--${name} VALUE` : `--${name}`))
    .join(", ");

/** Node's message for a refused option, in the CLI's words. */
function explain(err: unknown, verb: Verb): UsageError {
  const { code, message } = err as { code?: string; message: string };
  const named = /'(--?[^' ]+)/.exec(message)?.[1];
  const where = verb === "run" ? "Running the bot" : `"${verb}"`;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
    return new UsageError(`Unknown option ${named ?? message}: ${where} takes ${optionsOf(verb)}.`);
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (message.includes("argument missing"))
      return new UsageError(`${named} needs a value, e.g. ${VERBS[verb].example}.`);
    // Node reads "--timeout -1" as the option followed by another option, not as its value.
    if (message.includes("ambiguous"))
      return new UsageError(`${named} needs a value; one that starts with "-" is written ${named}=-VALUE.`);
    return new UsageError(`${named} takes no value: write it alone, e.g. ${VERBS[verb].example}.`);
  }
  return new UsageError(message);
}

export function parseCommandLine(argv: string[]): CommandLine {
  // The verb is the first word that is not an option or an option's value; every verb's options are known here so
  // that `--channel C1` before the verb is read as an option with its value.
  const everyOption = Object.assign({}, ...Object.values(VERBS).map((v) => v.options)) as Record<string, OptionSpec>;
  const first = parseArgs({ args: argv, options: everyOption, strict: false, allowPositionals: true });
  const word = first.positionals[0];
  if (word !== undefined && !isVerb(word))
    throw new UsageError(
      `Unknown command "${word}": the commands are exec, mcp, stop, notices, supervise, scan, backup, prune, stack and help.`,
    );
  const verb: Verb = word ?? "run";
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: VERBS[verb].options, strict: true, allowPositionals: true });
  } catch (err) {
    throw explain(err, verb);
  }
  const args = word === undefined ? parsed.positionals : parsed.positionals.slice(1);
  const { most, example } = VERBS[verb];
  if (!parsed.values.help && args.length > most) {
    const got = args.map((a) => JSON.stringify(a)).join(" ");
    throw new UsageError(
      `"${verb}" takes ${most === 0 ? "no arguments" : most === 1 ? "one argument" : `${most} arguments`}, got ${args.length}: ${got}. Quote one with spaces, e.g. ${example}.`,
    );
  }
  return { verb, args, options: parsed.values as CommandLine["options"] };
}
