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
export function trainerRunsFilter(runNames: readonly string[]): { $or: unknown[] } {
  return { $or: runNames.map((name) => ({ displayName: { $regex: `^${escapeRegex(name)}-trainer` } })) };
}

/**
 * The trainer runs of many training runs in one query: by group (the trainer shares its run's group, a field the
 * server matches exactly, as a list with $in), and by display-name prefix only for runs that have no group.
 */
export function trainerRunsByGroupFilter(
  groups: readonly string[],
  ungroupedNames: readonly string[],
): Record<string, unknown> {
  const byGroup = groups.length > 0 ? [{ group: { $in: [...groups] } }] : [];
  if (ungroupedNames.length === 0 && byGroup.length === 1) return byGroup[0]!;
  const byName = ungroupedNames.length > 0 ? (trainerRunsFilter(ungroupedNames).$or as unknown[]) : [];
  return { $or: [...byGroup, ...byName] };
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
