// Every setting, read once from the environment and an optional YAML file, validated with zod (its mini build), failing early.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { loadNodeCron } from "./load-node-cron.ts";
import { checkApprovers, parseApproveWhen, type ApprovalRule } from "./approval-settings.ts";
import { RlError } from "./errors.ts";
import { parseLocalPeople, type LocalPeople } from "./local-people.ts";
import { PACKAGE_ROOT } from "./package-root.ts";
import { BUILTIN_MANIFESTS_DIR, STACKS, stackManifestOf } from "./stack-manifest-path.ts";
import * as z from "zod/mini";
import "./zod-english.ts";

export { PACKAGE_ROOT };
export const DEMO_STACK_ROOT = path.join(PACKAGE_ROOT, "examples", "demo-stack");
/** The bundled miniature of tinker-cookbook: RL_STACK=tinker-cookbook runs it when no RL_TRAINING_ROOT is set. */
export const COOKBOOK_DEMO_ROOT = path.join(PACKAGE_ROOT, "examples", "tinker-cookbook");
export { STACKS, BUILTIN_MANIFESTS_DIR };
/** The stack a bot drives: a code stack's name, or a manifest's `name`. */
export type StackName = string;
const TRUE_WORDS = ["1", "true", "yes", "on"];
const BOOL_WORDS = [...TRUE_WORDS, "0", "false", "no", "off"];
const trimmed = (...checks: Array<z.core.CheckFn<string> | z.core.$ZodCheck<string>>) =>
  z.string().check(z.trim(), ...checks);
const bool = z.pipe(
  trimmed(
    z.toLowerCase(),
    z.refine((v) => BOOL_WORDS.includes(v), "expected true or false"),
  ),
  z.transform((v) => TRUE_WORDS.includes(v)),
);
const int = (min: number, max: number) =>
  z.pipe(
    z.pipe(trimmed(z.regex(/^-?\d+$/, "expected a whole number")), z.transform(Number)),
    z.int().check(z.minimum(min), z.maximum(max)),
  );
const port = int(0, 65535);
// "localhost:8080" parses as a URL whose scheme is "localhost": only http(s) is an address the bot can reach.
const url = trimmed(z.url({ protocol: /^https?$/, error: "expected an http(s) URL such as http://127.0.0.1:8080" }));
const text = trimmed(z.minLength(1));
/** One sbatch option value: a partition, account or GPU spec, never spaces (each goes in its own argv element). */
const slurmWord = trimmed(z.regex(/^[\w.:+-]+$/, "expected one word such as gpu, my-account or a100:1 (no spaces)"));
const slurmTime = trimmed(
  z.regex(
    /^(\d+(-\d+)?(:\d+){0,2}|UNLIMITED|INFINITE)$/i,
    "expected a Slurm time limit such as 90 (minutes), 4:00:00 or 1-12:00:00",
  ),
);
const split = z.transform((v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);
const list = z.pipe(z.string(), split);
const number = (pattern: RegExp, message: string) => z.pipe(trimmed(z.regex(pattern, message)), z.transform(Number));
/**
 * Minutes with an optional fraction (0.05 is 3 seconds), from one second up to `max`; 0, a negative number or anything
 * that is not a number is refused, saying what to set.
 */
const minutes = (max: number) => {
  const hint = "expected a number of minutes, one second (0.0167) or more, such as 1440 (a day) or 0.5 (30 seconds)";
  return z.pipe(
    number(/^\d+(\.\d+)?$/, hint),
    z.number().check(
      z.refine((m) => m * 60_000 >= 1000, hint),
      z.maximum(max),
    ),
  );
};

/** Variable name -> schema and default. The names are the documented settings (see .env.example). */
const settings = {
  RL_STACK: z._default(text, "atropos-tinker"),
  RL_TRAINING_ROOT: z.optional(text),
  RL_ENVIRONMENTS_DIR: z.optional(text),
  RL_SCAN_RECURSIVE: z._default(bool, false),
  RL_SCAN_MAX_FILE_BYTES: z._default(int(1_000, 100_000_000), 1_000_000),
  RL_DATA_DIR: z._default(text, "./data"),
  RL_LOCKED_FIELDS: z.optional(text),
  RL_PYTHON: z.optional(text),
  RL_ATROPOSLIB_DIR: z.optional(text),
  RL_API_COMMAND: z.optional(text),
  RL_TRAINER_COMMAND: z.optional(text),
  RL_BACKEND: z._default(z.enum(["local", "slurm"]), "local"),
  RL_SLURM_PARTITION: z.optional(slurmWord),
  RL_SLURM_ACCOUNT: z.optional(slurmWord),
  RL_SLURM_TIME_LIMIT: z.optional(slurmTime),
  RL_SLURM_GPUS: z.optional(slurmWord),
  RL_SLURM_EXTRA_ARGS: z.optional(z.string()),
  RL_SLURM_POLL_SECONDS: z._default(int(1, 600), 5),
  RL_SLURM_START_WAIT_SECONDS: z._default(int(0, 3600), 10),
  RL_SLURM_REQUEUE: z._default(bool, false),
  RL_SLURM_SIGNAL_SECONDS: z._default(int(1, 65535), 120),
  RL_SLURM_MAX_REQUEUES: z._default(int(0, 100), 3),
  RL_MAX_CONCURRENT_RUNS: z._default(int(1, 64), 1),
  RL_SWEEP_MAX_RUNS: z._default(int(1, 256), 16),
  RL_READY_TIMEOUT_SECONDS: z._default(int(1, 3600), 180),
  RL_STOP_GRACE_SECONDS: z._default(int(0, 600), 10),
  RL_CONFIRM_TTL_SECONDS: z._default(int(1, 7 * 24 * 3600), 900),
  RL_IDLE_EXIT_MINUTES: z._default(int(0, 7 * 24 * 60), 10),
  RL_PRUNE_AFTER_DAYS: z.optional(int(1, 36_500)),
  RL_ADMINS: z._default(list, []),
  RL_OPERATORS: z._default(list, []),
  RL_DEFAULT_ROLE: z._default(z.enum(["none", "read", "operate", "admin"]), "read"),
  RL_CHANNEL_ALLOWLIST: z._default(list, []),
  RL_APPROVE_WHEN: z._default(z.string(), ""),
  RL_APPROVERS: z._default(list, []),
  RL_APPROVAL_TTL_MINUTES: z._default(minutes(30 * 24 * 60), 24 * 60),
  RL_LOCAL_PEOPLE: z._default(list, []),
  RL_LOCAL_ACT_FOR_OTHERS: z._default(list, []),
  RL_DIGEST_CRON: z._default(
    trimmed(
      z.minLength(1),
      z.refine((v) => loadNodeCron().validate(v), 'expected a cron expression such as "*/30 * * * *"'),
    ),
    "*/30 * * * *",
  ),
  RL_DIGEST_INTERVAL_MINUTES: z._default(int(1, 24 * 60), 30),
  RL_CHANNEL_POSTS_PER_HOUR: z._default(int(1, 1000), 6),
  RL_STALL_MINUTES: z._default(int(1, 24 * 60), 20),
  RL_REGRESSION_FRACTION: z._default(number(/^(0(\.\d+)?|1(\.0+)?)$/, "expected a fraction between 0 and 1"), 0.3),
  RL_LOG_LEVEL: z.optional(z.enum(["debug", "info", "warn", "error", "silent"])),
  TINKER_API_KEY: z.optional(text),
  WANDB_API_KEY: z.optional(text),
  WANDB_BASE_URL: z._default(url, "https://api.wandb.ai"),
  WANDB_APP_URL: z.optional(url),
  WANDB_ENTITY: z.optional(text),
  WANDB_PROJECT: z.optional(text),
  OPENROUTER_API_KEY: z.optional(text),
  RL_TEST_MODELS: z._default(
    z.pipe(
      list,
      z
        .array(z.string())
        .check(
          z.refine(
            (ids) => ids.length > 0 && ids.every((id) => /^[A-Za-z0-9][\w.:@+/-]*$/.test(id)),
            "expected comma-separated model ids such as qwen/qwen3-8b",
          ),
        ),
    ),
    ["qwen/qwen3-8b", "zhipu-ai/glm-4-flash", "minimax/minimax-m1"],
  ),
  RL_TEST_BASE_URL: z._default(url, "https://openrouter.ai/api/v1"),
  RL_TEST_STEPS: z._default(int(1, 50), 3),
  RL_TEST_GROUP_SIZE: z._default(int(1, 64), 16),
  RL_TEST_TIMEOUT_SECONDS: z._default(int(1, 24 * 3600), 600),
  RL_TEST_CONCURRENCY: z._default(int(1, 16), 3),
  RL_TEST_CORRECT_THRESHOLD: z._default(number(/^-?\d+(\.\d+)?$/, "expected a number such as 0.5"), 0.5),
  SLACK_BOT_TOKEN: z.optional(text),
  SLACK_APP_TOKEN: z.optional(text),
  SLACK_SIGNING_SECRET: z.optional(text),
  SLACK_PORT: z._default(port, 3000),
  SLACK_API_URL: z._default(url, "https://slack.com/api/"),
  DISCORD_TOKEN: z.optional(text),
  DISCORD_GUILD_ID: z.optional(text),
  DISCORD_API_URL: z.optional(url),
  LLM_BASE_URL: z.optional(url),
  LLM_API_KEY: z.optional(text),
  LLM_MODEL: z.optional(text),
  LLM_MAX_ITERATIONS: z._default(int(1, 50), 8),
  LLM_HISTORY_MESSAGES: z._default(int(0, 1000), 40),
  LLM_TIMEOUT_SECONDS: z._default(int(1, 600), 60),
} as const;

export type SettingName = keyof typeof settings;
export const SETTING_NAMES = Object.keys(settings) as SettingName[];
/** A setting's default as its schema gives it (undefined: none, or one worked out from other settings). */
export function settingDefault(name: SettingName): unknown {
  const result = settings[name].safeParse(undefined);
  return result.success ? result.data : undefined;
}
/** Settings whose values must never be shown anywhere. */
export const SECRET_SETTINGS: readonly SettingName[] = [
  "TINKER_API_KEY",
  "WANDB_API_KEY",
  "OPENROUTER_API_KEY",
  "SLACK_BOT_TOKEN",
  "SLACK_APP_TOKEN",
  "SLACK_SIGNING_SECRET",
  "DISCORD_TOKEN",
  "LLM_API_KEY",
];

type Raw = { [K in SettingName]: z.output<(typeof settings)[K]> };

export interface SlurmSettings {
  partition?: string;
  account?: string;
  timeLimit?: string;
  gpus?: string;
  /** Extra sbatch options, one argv element each. */
  extraArgs: string[];
  pollMs: number;
  /** How long /rl start waits for a pending job before answering that it waits in the Slurm queue. */
  startWaitMs: number;
  /** Jobs are requeueable and warned before their end; a preempted or timed-out run continues where its stack can. */
  requeue: boolean;
  /** How long before the time limit the job's launcher gets SIGTERM (sbatch --signal=B:TERM@seconds). */
  signalSeconds: number;
  /** The most times one run's job is requeued before the run ends failed. */
  maxRequeues: number;
}

export interface Config {
  /** The training stack new runs are started on (RL_STACK as given: a code stack's name, a built-in name, a path). */
  stack: StackName;
  /** The stack manifest RL_STACK names (absolute), when the stack is not one written as code. */
  stackManifest?: string;
  trainingRoot: string;
  isDemoStack: boolean;
  environmentsDir: string;
  scanRecursive: boolean;
  scanMaxFileBytes: number;
  dataDir: string;
  databasePath: string;
  /** The bot's daily database backups (the newest 7). */
  backupsDir: string;
  logsDir: string;
  /** Notices for console channels that no console shows (rl-chatops notices prints them). */
  noticesPath: string;
  runConfigsDir: string;
  lockedFieldsPath: string | undefined;
  python: string;
  /** atroposlib's package folder when RL_ATROPOSLIB_DIR names it; else it is looked for under `python`. */
  atroposlibDir: string | undefined;
  apiCommand: string[];
  trainerCommand: string[];
  backend: "local" | "slurm";
  slurm: SlurmSettings;
  maxConcurrentRuns: number;
  /** The most runs one /rl sweep may start. */
  sweepMaxRuns: number;
  readyTimeoutMs: number;
  stopGraceMs: number;
  /** How long a confirmation prompt (Confirm / Cancel) can be answered. */
  confirmTtlMs: number;
  /** How long the background supervisor that exec starts stays once no run is live or queued (0: it exits at once). */
  idleExitMs: number;
  pruneAfterDays?: number;
  policy: {
    admins: string[];
    operators: string[];
    defaultRole: "none" | "read" | "operate" | "admin";
    channelAllowlist: string[];
  };
  /** Starts that wait for a second person's approval (RL_APPROVE_WHEN, RL_APPROVERS, RL_APPROVAL_TTL_MINUTES). */
  approvals: { when: ApprovalRule[]; approvers: string[]; ttlMs: number };
  /** Who exec and mcp over stdio act as (RL_LOCAL_PEOPLE, RL_LOCAL_ACT_FOR_OTHERS; src/local-people.ts). */
  localPeople: LocalPeople;
  logLevel: NonNullable<Raw["RL_LOG_LEVEL"]>;
  digests: {
    cron: string;
    intervalMs: number;
    channelPostsPerHour: number;
    stallMs: number;
    regressionFraction: number;
  };
  keys: { tinker?: string; wandb?: string; openrouter?: string };
  /** /rl test: the environment's process mode against several models (see src/inference/). */
  inferenceTest: {
    models: string[];
    baseUrl: string;
    steps: number;
    groupSize: number;
    timeoutMs: number;
    concurrency: number;
    correctThreshold: number;
  };
  wandb: { baseUrl: string; appUrl?: string; entity?: string; project: string };
  slack: { botToken?: string; appToken?: string; signingSecret?: string; port: number; apiUrl: string };
  discord: { token?: string; guildId?: string; apiUrl?: string };
  llm: {
    baseUrl?: string;
    apiKey?: string;
    model?: string;
    maxIterations: number;
    historyMessages: number;
    timeoutMs: number;
  };
  /** Every secret value in force, so output can be redacted. */
  secrets: string[];
}

/** Read the optional YAML file: a flat map of the same names as the environment variables. */
function readConfigFile(env: NodeJS.ProcessEnv, cwd: string): Record<string, string> {
  // Empty is unset, as for every setting: the `RL_CONFIG=` line of a .env copied from .env.example names no file.
  const explicit = env.RL_CONFIG || undefined;
  const file = path.resolve(cwd, explicit ?? "rl-chatops.yaml");
  if (!existsSync(file)) {
    if (explicit)
      throw new RlError(
        "CONFIG",
        `RL_CONFIG points to ${file}, which does not exist. Fix RL_CONFIG or create the file.`,
      );
    return {};
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(file, "utf8"));
  } catch (err) {
    throw new RlError(
      "CONFIG",
      `${file} is not valid YAML (${(err as Error).message}). Fix the file named by RL_CONFIG.`,
      { cause: err },
    );
  }
  if (parsed == null) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new RlError("CONFIG", `${file} must be a mapping of setting names to values, e.g. "RL_DATA_DIR: ./data".`);
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!(SETTING_NAMES as string[]).includes(key)) {
      throw new RlError("CONFIG", `${file}: unknown setting "${key}". Known settings are listed in .env.example.`);
    }
    out[key] = Array.isArray(value) ? value.join(",") : String(value);
  }
  return out;
}

/** A Slurm time limit in seconds ("90" is minutes; M:S, H:M:S, D-H, D-H:M, D-H:M:S); undefined when unlimited. */
export function slurmTimeSeconds(limit: string): number | undefined {
  if (/^(UNLIMITED|INFINITE)$/i.test(limit)) return undefined;
  const [days, rest] = limit.includes("-") ? limit.split("-") : [undefined, limit];
  const parts = (rest ?? "").split(":").map(Number);
  const d = Number(days ?? 0);
  if (days !== undefined) {
    const [h = 0, m = 0, s = 0] = parts;
    return ((d * 24 + h) * 60 + m) * 60 + s;
  }
  if (parts.length === 1) return parts[0]! * 60;
  if (parts.length === 2) return parts[0]! * 60 + parts[1]!;
  return (parts[0]! * 60 + parts[1]!) * 60 + parts[2]!;
}

/** The warning must come before the end, and leave the trainer its stop grace to save in. */
function checkSlurmSignal(r: Raw): void {
  if (!r.RL_SLURM_REQUEUE) return;
  const limit = r.RL_SLURM_TIME_LIMIT ? slurmTimeSeconds(r.RL_SLURM_TIME_LIMIT) : undefined;
  if (limit !== undefined && r.RL_SLURM_SIGNAL_SECONDS >= limit) {
    throw new RlError(
      "CONFIG",
      `RL_SLURM_SIGNAL_SECONDS has a bad value: ${r.RL_SLURM_SIGNAL_SECONDS} s is not before the end of a job limited to ${limit} s (RL_SLURM_TIME_LIMIT=${r.RL_SLURM_TIME_LIMIT}). Set RL_SLURM_SIGNAL_SECONDS below the time limit.`,
    );
  }
  if (r.RL_SLURM_SIGNAL_SECONDS <= r.RL_STOP_GRACE_SECONDS) {
    throw new RlError(
      "CONFIG",
      `RL_SLURM_SIGNAL_SECONDS has a bad value: ${r.RL_SLURM_SIGNAL_SECONDS} s leaves the trainer no time to save before the end (RL_STOP_GRACE_SECONDS is ${r.RL_STOP_GRACE_SECONDS}). Set RL_SLURM_SIGNAL_SECONDS above RL_STOP_GRACE_SECONDS.`,
    );
  }
}

function splitCommand(value: string): string[] {
  return value.split(/\s+/).filter(Boolean);
}

/** Load and validate every setting; a bad value throws an RlError naming the variable to fix. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const merged: Record<string, string | undefined> = { ...readConfigFile(env, cwd) };
  for (const name of SETTING_NAMES) {
    const value = env[name];
    if (value !== undefined && value !== "") merged[name] = value;
  }
  const raw = {} as Record<string, unknown>;
  for (const name of SETTING_NAMES) {
    const result = settings[name].safeParse(merged[name]);
    if (!result.success) {
      const issue = result.error.issues[0]?.message ?? "invalid value";
      throw new RlError(
        "CONFIG",
        `${name} has a bad value: ${issue}. Set ${name} in the environment or in the RL_CONFIG file.`,
      );
    }
    raw[name] = result.data;
  }
  const r = raw as Raw;
  checkSlurmSignal(r);
  const approveWhen = parseApproveWhen(r.RL_APPROVE_WHEN);
  const cookbook = r.RL_STACK === "tinker-cookbook";
  const stackManifest = stackManifestOf(r.RL_STACK, cwd);
  // A built-in manifest's miniature is examples/<name>; a team's manifest runs in its own folder unless told.
  const demoRoot = stackManifest
    ? stackManifest.startsWith(BUILTIN_MANIFESTS_DIR + path.sep)
      ? path.join(PACKAGE_ROOT, "examples", path.basename(stackManifest, ".yaml"))
      : path.dirname(stackManifest)
    : cookbook
      ? COOKBOOK_DEMO_ROOT
      : DEMO_STACK_ROOT;
  const trainingRoot = path.resolve(cwd, r.RL_TRAINING_ROOT ?? demoRoot);
  const isDemoStack = trainingRoot === demoRoot;
  const dataDir = path.resolve(cwd, r.RL_DATA_DIR);
  // A manifest's {python}: Debian and macOS have python3, not always python.
  const python = r.RL_PYTHON ?? (isDemoStack || stackManifest ? "python3" : "python");
  const lockedDefault =
    isDemoStack && !cookbook && !stackManifest ? path.join(DEMO_STACK_ROOT, "locked-fields.yaml") : undefined;
  const unitsDir = stackManifest
    ? "."
    : cookbook
      ? path.join("tinker_cookbook", "recipes")
      : path.join("tinker_atropos", "environments");
  const secrets = SECRET_SETTINGS.map((n) => r[n]).filter((v): v is string => typeof v === "string" && v.length > 0);
  return {
    stack: r.RL_STACK,
    ...(stackManifest ? { stackManifest } : {}),
    trainingRoot,
    isDemoStack,
    environmentsDir: path.resolve(trainingRoot, r.RL_ENVIRONMENTS_DIR ?? unitsDir),
    scanRecursive: r.RL_SCAN_RECURSIVE,
    scanMaxFileBytes: r.RL_SCAN_MAX_FILE_BYTES,
    dataDir,
    databasePath: path.join(dataDir, "rl-chatops.db"),
    backupsDir: path.join(dataDir, "backups"),
    logsDir: path.join(dataDir, "logs"),
    noticesPath: path.join(dataDir, "notices.log"),
    runConfigsDir: path.join(dataDir, "run-configs"),
    lockedFieldsPath: r.RL_LOCKED_FIELDS ? path.resolve(cwd, r.RL_LOCKED_FIELDS) : lockedDefault,
    python,
    atroposlibDir: r.RL_ATROPOSLIB_DIR ? path.resolve(cwd, r.RL_ATROPOSLIB_DIR) : undefined,
    apiCommand: splitCommand(r.RL_API_COMMAND ?? (isDemoStack ? `${python} run_api.py` : "run-api")),
    trainerCommand: splitCommand(r.RL_TRAINER_COMMAND ?? `${python} launch_training.py`),
    backend: r.RL_BACKEND,
    slurm: {
      partition: r.RL_SLURM_PARTITION,
      account: r.RL_SLURM_ACCOUNT,
      timeLimit: r.RL_SLURM_TIME_LIMIT,
      gpus: r.RL_SLURM_GPUS,
      extraArgs: splitCommand(r.RL_SLURM_EXTRA_ARGS ?? ""),
      pollMs: r.RL_SLURM_POLL_SECONDS * 1000,
      startWaitMs: r.RL_SLURM_START_WAIT_SECONDS * 1000,
      requeue: r.RL_SLURM_REQUEUE,
      signalSeconds: r.RL_SLURM_SIGNAL_SECONDS,
      maxRequeues: r.RL_SLURM_MAX_REQUEUES,
    },
    maxConcurrentRuns: r.RL_MAX_CONCURRENT_RUNS,
    sweepMaxRuns: r.RL_SWEEP_MAX_RUNS,
    readyTimeoutMs: r.RL_READY_TIMEOUT_SECONDS * 1000,
    stopGraceMs: r.RL_STOP_GRACE_SECONDS * 1000,
    confirmTtlMs: r.RL_CONFIRM_TTL_SECONDS * 1000,
    idleExitMs: r.RL_IDLE_EXIT_MINUTES * 60_000,
    pruneAfterDays: r.RL_PRUNE_AFTER_DAYS,
    policy: {
      admins: r.RL_ADMINS,
      operators: r.RL_OPERATORS,
      defaultRole: r.RL_DEFAULT_ROLE,
      channelAllowlist: r.RL_CHANNEL_ALLOWLIST,
    },
    approvals: {
      when: approveWhen,
      approvers: checkApprovers(r.RL_APPROVERS, approveWhen),
      // Rounded to the millisecond: a fraction of a minute (0.05) is not a whole number of them in floating point.
      ttlMs: Math.round(r.RL_APPROVAL_TTL_MINUTES * 60_000),
    },
    localPeople: parseLocalPeople(r.RL_LOCAL_PEOPLE, r.RL_LOCAL_ACT_FOR_OTHERS),
    // In the terminal console the logs share the screen with the conversation: only warnings unless asked.
    logLevel: r.RL_LOG_LEVEL ?? (r.SLACK_BOT_TOKEN || r.DISCORD_TOKEN ? "info" : "warn"),
    digests: {
      cron: r.RL_DIGEST_CRON,
      intervalMs: r.RL_DIGEST_INTERVAL_MINUTES * 60_000,
      channelPostsPerHour: r.RL_CHANNEL_POSTS_PER_HOUR,
      stallMs: r.RL_STALL_MINUTES * 60_000,
      regressionFraction: r.RL_REGRESSION_FRACTION,
    },
    keys: { tinker: r.TINKER_API_KEY, wandb: r.WANDB_API_KEY, openrouter: r.OPENROUTER_API_KEY },
    inferenceTest: {
      models: r.RL_TEST_MODELS,
      baseUrl: r.RL_TEST_BASE_URL,
      steps: r.RL_TEST_STEPS,
      groupSize: r.RL_TEST_GROUP_SIZE,
      timeoutMs: r.RL_TEST_TIMEOUT_SECONDS * 1000,
      concurrency: r.RL_TEST_CONCURRENCY,
      correctThreshold: r.RL_TEST_CORRECT_THRESHOLD,
    },
    wandb: {
      baseUrl: r.WANDB_BASE_URL,
      appUrl: r.WANDB_APP_URL,
      entity: r.WANDB_ENTITY,
      project: r.WANDB_PROJECT ?? r.RL_STACK,
    },
    slack: {
      botToken: r.SLACK_BOT_TOKEN,
      appToken: r.SLACK_APP_TOKEN,
      signingSecret: r.SLACK_SIGNING_SECRET,
      port: r.SLACK_PORT,
      apiUrl: r.SLACK_API_URL,
    },
    discord: { token: r.DISCORD_TOKEN, guildId: r.DISCORD_GUILD_ID, apiUrl: r.DISCORD_API_URL },
    llm: {
      baseUrl: r.LLM_BASE_URL,
      apiKey: r.LLM_API_KEY,
      model: r.LLM_MODEL,
      maxIterations: r.LLM_MAX_ITERATIONS,
      historyMessages: r.LLM_HISTORY_MESSAGES,
      timeoutMs: r.LLM_TIMEOUT_SECONDS * 1000,
    },
    secrets,
  };
}
