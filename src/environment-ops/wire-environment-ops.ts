// Wiring of the environment operations commands call: finding environments and fields, the config view, on the
// catalog and the rules of the bot's training stack.
import type { ChannelsRepo } from "../../db/channels.ts";
import type { Config } from "../config.ts";
import { createEnvironmentOps, type EnvironmentOps } from "../environment-ops.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import type { WiredStacks } from "../stacks/wire-stacks.ts";

export interface EnvironmentOpsNeeds {
  channels: ChannelsRepo;
  redact: (text: string) => string;
  stacks: Pick<WiredStacks, "services" | "current" | "environmentHooks">;
}

export function wireEnvironmentOps(config: Config, needs: EnvironmentOpsNeeds): FeatureSlice<{ env: EnvironmentOps }> {
  const { stacks } = needs;
  const env = createEnvironmentOps({
    catalog: stacks.services.catalog,
    channels: needs.channels,
    keys: config.keys,
    isDemoStack: config.isDemoStack,
    redact: needs.redact,
    stack: stacks.current,
    ...stacks.environmentHooks,
  });
  return { services: { env } };
}
