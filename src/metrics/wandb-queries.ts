// The GraphQL documents the WandB client sends, and the Mongo-style run filters it builds.

export const VIEWER_QUERY = `query Viewer {
  viewer {
    entity
  }
}`;

// Field list and argument names follow the wandb SDK's own Runs query, so the public API answers it as is.
export const RUNS_QUERY = `query Runs($project: String!, $entity: String!, $cursor: String, $perPage: Int = 50, $order: String, $filters: JSONString) {
  project(name: $project, entityName: $entity) {
    runs(filters: $filters, after: $cursor, first: $perPage, order: $order) {
      edges {
        node {
          id
          name
          displayName
          state
          group
          createdAt
          heartbeatAt
          summaryMetrics
          historyKeys
        }
        cursor
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
}`;

export const HISTORY_QUERY = `query RunSampledHistory($project: String!, $entity: String!, $name: String!, $specs: [JSONString!]!) {
  project(name: $project, entityName: $entity) {
    run(name: $name) {
      sampledHistory(specs: $specs)
    }
  }
}`;

/** Newest first, so the first match for a name is the one to report. */
export const NEWEST_FIRST = "-created_at";

/** Escape every regex metacharacter so a run name is matched literally inside a $regex filter. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * One $or of anchored regexes, one per wandb_run_name: the trainer names its run
 * "{wandb_run_name}-trainer-{suffix}", so equality on the name (the seed's mistake) never matches.
 */
export function trainerRunsFilter(runNames: readonly string[]): Record<string, unknown> {
  return { $or: runNames.map((name) => ({ displayName: { $regex: `^${escapeRegex(name)}-trainer` } })) };
}

export function groupFilter(group: string): Record<string, unknown> {
  return { group };
}

/**
 * The regex prefix also matches "{name}-trainerX" or another name's runs when one name extends another
 * ("a" and "a-trainer-b"), so each hit is checked again exactly: "{name}-trainer" or "{name}-trainer-...".
 */
export function isTrainerRunOf(displayName: string, runName: string): boolean {
  const stem = `${runName}-trainer`;
  return displayName === stem || displayName.startsWith(`${stem}-`);
}

/** Trainer runs share the environment's group; their display name carries "-trainer" right before the suffix. */
export function looksLikeTrainerRun(displayName: string): boolean {
  return /-trainer(-|$)/.test(displayName);
}
