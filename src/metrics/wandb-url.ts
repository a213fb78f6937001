// Where a WandB run's page lives: the app URL derived from the API base URL, as the wandb SDK derives it.

/**
 * The app (web UI) URL: WANDB_APP_URL when set, else the API base URL with "://api.wandb." turned into
 * "://wandb.", any other "://api.X" into "://app.X", or the base URL unchanged (a self-hosted server serves both).
 */
export function resolveWandbAppUrl(baseUrl: string, appUrl?: string): string {
  const explicit = appUrl?.trim();
  if (explicit) return stripTrailingSlash(explicit);
  const base = stripTrailingSlash(baseUrl.trim());
  if (base.includes("://api.wandb.")) return base.replace("://api.wandb.", "://wandb.");
  if (base.includes("://api.")) return base.replace("://api.", "://app.");
  return base;
}

/** {app}/{entity}/{project}/runs/{runId}; runId is the run's `name` (its id), not its display name. */
export function buildWandbRunUrl(appUrl: string, entity: string, project: string, runId: string): string {
  const segments = [entity, project, "runs", runId].map((s) => encodeURIComponent(s));
  return `${stripTrailingSlash(appUrl)}/${segments.join("/")}`;
}

/** {app}/{entity}/{project}/groups/{group}: every run of a training run's group, the trainer's and the environment's. */
export function buildWandbGroupUrl(appUrl: string, entity: string, project: string, group: string): string {
  const segments = [entity, project, "groups", group].map((s) => encodeURIComponent(s));
  return `${stripTrailingSlash(appUrl)}/${segments.join("/")}`;
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
