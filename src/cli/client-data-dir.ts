// The data folder exec looks for its owner in, read without the settings parser (YAML, zod) when the settings make it
// plain: a client of a running owner then loads only the socket client and the printer.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** RL_DATA_DIR's default in config.ts (a test holds the two together). */
const DEFAULT_DATA_DIR = "./data";

/** A value the YAML parser reads as the same string: a path, not a quoted, flow, tagged, numeric or boolean scalar. */
const PLAIN_PATH = /^(?:\.{0,2}\/[^#]*|[A-Za-z_][\w.-]*(?:\/[^#]*)?)$/;
const NOT_A_STRING = /^(?:true|false|null|yes|no|on|off|~)$/i;

/** RL_DATA_DIR in the settings file's text: undefined (absent), the value, or null when only the parser can tell. */
function dataDirInFile(text: string): string | undefined | null {
  if (!text.includes("RL_DATA_DIR")) return undefined;
  const lines = [...text.matchAll(/^RL_DATA_DIR:[ \t]*(.*?)[ \t]*(?:[ \t]#.*)?\r?$/gm)];
  if (lines.length !== 1 || text.split("RL_DATA_DIR").length !== 2) return null;
  const value = lines[0]![1]!;
  return PLAIN_PATH.test(value) && !NOT_A_STRING.test(value) ? value : null;
}

/**
 * The data folder as loadConfig would resolve it, or undefined when finding it takes the full settings (a value
 * only the YAML parser can read, or an RL_CONFIG file that is missing, whose error loadConfig gives).
 */
export function readClientDataDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  if (env.RL_DATA_DIR) return path.resolve(cwd, env.RL_DATA_DIR);
  const explicit = env.RL_CONFIG || undefined;
  const file = path.resolve(cwd, explicit ?? "rl-chatops.yaml");
  let value: string | undefined | null = undefined;
  if (existsSync(file)) {
    try {
      value = dataDirInFile(readFileSync(file, "utf8"));
    } catch {
      return undefined;
    }
  } else if (explicit) return undefined;
  return value === null ? undefined : path.resolve(cwd, value ?? DEFAULT_DATA_DIR);
}
