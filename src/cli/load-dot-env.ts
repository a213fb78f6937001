// Reads ./.env into the environment at start (the real environment wins) and warns of names no setting has.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";

/** Prefixes of rl-chatops' own settings: a name with one of them that is no setting is most likely a typo. */
const OWN_PREFIXES = /^(RL|SLACK|DISCORD|LLM)_/;
/** wandb reads many WANDB_ names of its own from the trainer's environment: only a near miss of ours is doubtful. */
const SHARED_PREFIXES = /^WANDB_/;

/** The names of rl-chatops's settings, loaded only for a file that names some (src/cli/setting-names.ts). */
export type SettingNames = () => Promise<readonly string[]>;

/**
 * Load `<cwd>/.env` with Node's own parser (`process.loadEnvFile`, the `--env-file` format), leaving every variable
 * the environment already has as it is. Returns one warning per name in the file that no setting has.
 */
export async function loadDotEnv(cwd: string, env: NodeJS.ProcessEnv, settingNames: SettingNames): Promise<string[]> {
  const file = path.join(cwd, ".env");
  if (!existsSync(file)) return [];
  const parsed = parseEnv(readFileSync(file, "utf8"));
  for (const [name, value] of Object.entries(parsed)) if (!(name in env)) env[name] = value;
  const doubtful = Object.keys(parsed).filter((name) => OWN_PREFIXES.test(name) || SHARED_PREFIXES.test(name));
  if (doubtful.length === 0) return [];
  // Only a file naming settings pays for loading their list.
  const [names, { nearestName }] = await Promise.all([
    settingNames(),
    import("../environments/resolution/nearest-name.ts"),
  ]);
  // RL_CONFIG names the settings file rather than being one of its settings.
  const known: readonly string[] = [...names, "RL_CONFIG"];
  const warnings: string[] = [];
  for (const name of doubtful.filter((n) => !known.includes(n))) {
    const near = nearestName(name, known);
    if (near) warnings.push(`${file}: ${name} is not a setting of rl-chatops; did you mean ${near}?`);
    else if (OWN_PREFIXES.test(name))
      warnings.push(`${file}: ${name} is not a setting of rl-chatops (the settings are listed in .env.example).`);
  }
  return warnings;
}
