// node-cron, loaded the first time something needs it (a configured RL_DIGEST_CRON to check, or the bot starting its
// schedules), so one-shot commands never load it. Its CommonJS build, so that loading stays synchronous.
import { createRequire } from "node:module";
import type * as NodeCronModule from "node-cron";

type NodeCron = typeof NodeCronModule;

let loaded: NodeCron | undefined;

export function loadNodeCron(): NodeCron {
  loaded ??= createRequire(import.meta.url)("node-cron") as NodeCron;
  return loaded;
}
