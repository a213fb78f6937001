// The link to a run's WandB group page, built from settings alone (no WandB call), for when WandB has not named the run.
import type { Config } from "../config.ts";
import type { ReplyLink } from "../reply.ts";
import { buildWandbGroupUrl, resolveWandbAppUrl } from "./wandb-url.ts";

/** Where WandB pages live: the app URL and, when set, the entity (WANDB_ENTITY) that run and group pages need. */
export interface WandbPages {
  appUrl: string;
  entity?: string;
}

export function wandbPagesOf(config: Pick<Config, "wandb">): WandbPages {
  return {
    appUrl: resolveWandbAppUrl(config.wandb.baseUrl, config.wandb.appUrl),
    ...(config.wandb.entity ? { entity: config.wandb.entity } : {}),
  };
}

interface RunNames {
  wandbProject?: string;
  wandbGroup?: string;
}

/**
 * Known even while WandB cannot be reached: entity, project and group are the run's own settings. A run page needs
 * the WandB run's id, which only WandB knows (the trainer's run is displayed as "{wandb_run_name}-trainer-{suffix}"
 * under a generated id), so the run's wandb_run_name never stands in for it.
 */
export function wandbGroupLink(run: RunNames, pages: WandbPages | undefined): ReplyLink | undefined {
  if (!pages?.entity || !run.wandbProject || !run.wandbGroup) return undefined;
  return {
    label: "WandB group",
    url: buildWandbGroupUrl(pages.appUrl, pages.entity, run.wandbProject, run.wandbGroup),
  };
}
