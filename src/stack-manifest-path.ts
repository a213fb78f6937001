// Which stack RL_STACK names: one written as code, a built-in stack manifest (src/stacks/builtin/<name>.yaml), or the
// path of a team's own manifest; anything else is refused, naming what is accepted.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { RlError } from "./errors.ts";
import { PACKAGE_ROOT } from "./package-root.ts";

/** The training stacks written as code (src/stacks/): any other RL_STACK is a stack manifest. */
export const STACKS = ["atropos-tinker", "tinker-cookbook"] as const;
/** The built-in stack manifests: RL_STACK=<name> reads src/stacks/builtin/<name>.yaml. */
export const BUILTIN_MANIFESTS_DIR = path.join(PACKAGE_ROOT, "src", "stacks", "builtin");

/**
 * Where RL_STACK's manifest is: a built-in stack's file, or the path given; undefined for a code stack. A value that
 * is neither names what is accepted.
 */
export function stackManifestOf(value: string, cwd: string): string | undefined {
  if ((STACKS as readonly string[]).includes(value)) return undefined;
  if (/^[a-z0-9][a-z0-9-]*$/.test(value)) {
    const builtin = path.join(BUILTIN_MANIFESTS_DIR, `${value}.yaml`);
    if (existsSync(builtin)) return builtin;
  }
  if (value.includes("/") || /\.ya?ml$/.test(value)) return path.resolve(cwd, value);
  throw new RlError(
    "CONFIG",
    `RL_STACK has a bad value: "${value}" is neither a built-in stack (${[...STACKS, ...builtinManifestNames()].join(", ")}) nor a stack manifest file (a path to a .yaml file). Set RL_STACK in the environment or in the RL_CONFIG file.`,
  );
}

function builtinManifestNames(): string[] {
  try {
    return readdirSync(BUILTIN_MANIFESTS_DIR)
      .filter((f) => f.endsWith(".yaml"))
      .map((f) => f.slice(0, -".yaml".length));
  } catch {
    return [];
  }
}
