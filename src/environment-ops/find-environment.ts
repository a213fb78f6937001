// Finds the environment a channel or a person means: the channel's selection, a name, or a path in the folder.
import type { ChannelKey } from "../../db/channel-key.ts";
import type { ChannelsRepo } from "../../db/channels.ts";
import type { EnvironmentCatalog } from "../environments/resolution/catalog.ts";
import type { EnvironmentInfo } from "../environments/types.ts";
import { RlError } from "../errors.ts";
import { quoteInput } from "../values/quote-input.ts";

export interface EnvironmentFinderDeps {
  catalog: EnvironmentCatalog;
  channels: ChannelsRepo;
}

/** An environment a run can start: its file's main block calls its cli() (training and /rl test both run `python FILE`). */
export function requireRunnable(env: EnvironmentInfo): EnvironmentInfo {
  if (env.runnable) return env;
  throw new RlError(
    "NOT_STARTABLE",
    `${env.name} cannot be started: ${env.notRunnableReason ?? "its file has no entry point for it"}. Add \`if __name__ == "__main__": ${env.className}.cli()\` to ${env.relativePath}, or select another environment (see /rl envs).`,
    {
      details: { environment: env.name, reason: env.notRunnableReason },
    },
  );
}

export function createEnvironmentFinder(deps: EnvironmentFinderDeps) {
  const { catalog, channels } = deps;

  const selected = async (key: ChannelKey): Promise<EnvironmentInfo> => {
    const name = channels.selectedEnvironment(key);
    if (!name)
      throw new RlError(
        "NO_ENVIRONMENT",
        "No environment is selected in this channel. Pick one with /rl select <name> (see /rl envs).",
      );
    return catalog.get(name).catch((err: unknown) => {
      throw new RlError(
        "NOT_FOUND",
        `This channel's environment "${name}" is no longer in the environments folder. Select another with /rl select <name>.`,
        {
          cause: err,
        },
      );
    });
  };

  // A path relative to the folder ("community/x/env.py", or "env.py:Class" when a file holds several) picks one
  // environment whatever its name, so two files that share a name are both reachable.
  const find = async (input: string): Promise<EnvironmentInfo> => {
    if (!input.includes("/") && !/\.py(:|$)/.test(input)) return catalog.get(input);
    const relative = input.replace(/\\/g, "/").replace(/^\.\//, "");
    const { environments } = await catalog.list();
    const matches = environments.filter(
      (e) => e.relativePath === relative || `${e.relativePath}:${e.className}` === relative,
    );
    const [only] = matches;
    if (only && matches.length === 1) return only;
    if (matches.length > 1) {
      const choices = matches.map((e) => `${e.relativePath}:${e.className}`);
      throw new RlError(
        "NOT_FOUND",
        `${quoteInput(input)} holds ${matches.length} environments; select one of: ${choices.join(", ")}.`,
        { details: { available: choices } },
      );
    }
    return catalog.get(input);
  };

  return {
    /** The channel's selected environment. */
    selected,
    find,
    /** The channel's environment, refused when its file cannot start it. */
    startable: async (key: ChannelKey): Promise<EnvironmentInfo> => requireRunnable(await selected(key)),
  };
}

export type EnvironmentFinder = ReturnType<typeof createEnvironmentFinder>;
