// The WandB client over plain fetch: finds the trainer and environment runs of a training run, reads history.
import { RlError } from "../errors.ts";
import { createWandbGraphql } from "./wandb-graphql.ts";
import { parseSummaryMetrics } from "./wandb-metrics.ts";
import type { WandbSummary } from "./wandb-metrics.ts";
import {
  HISTORY_QUERY,
  NEWEST_FIRST,
  RUNS_QUERY,
  VIEWER_QUERY,
  groupFilter,
  isTrainerRunOf,
  looksLikeTrainerRun,
  trainerRunsByGroupFilter,
  trainerRunsFilter,
} from "./wandb-queries.ts";
import { historyAnswer, parseAnswer, runsAnswer, viewerAnswer } from "./wandb-schemas.ts";
import type { RunNode } from "./wandb-schemas.ts";
import { buildWandbRunUrl, resolveWandbAppUrl } from "./wandb-url.ts";

export interface WandbClientOptions {
  apiKey: string;
  /** WANDB_BASE_URL. */
  baseUrl?: string;
  /** WANDB_ENTITY; when unset the API key's own entity is asked for (never a fixed organisation). */
  entity?: string;
  /** WANDB_APP_URL, for run links. */
  appUrl?: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  /** Runs per page when paging through a runs query. */
  pageSize?: number;
  /** A bound on paging, so a server that always says hasNextPage cannot keep us looping. */
  maxPages?: number;
}

export interface WandbRun {
  /** WandB's opaque node id. */
  id: string;
  /** The run id, as in the URL. */
  name: string;
  displayName: string;
  /** running, finished, crashed, failed, killed, pending, preempting, preempted. */
  state: string;
  group: string | null;
  createdAt: string | null;
  heartbeatAt: string | null;
  summary: WandbSummary;
  lastStep: number | null;
  url: string;
}

export type WandbHistoryRow = Record<string, unknown>;

export interface WandbClient {
  /** The entity that owns the API key (cached after the first answer). */
  viewerEntity(): Promise<string>;
  /** The configured entity, else the viewer's. */
  resolveEntity(): Promise<string>;
  /**
   * Each requested wandb_run_name mapped to its newest trainer run; names without one are absent. With `groups`
   * (run name to its wandb group), the runs that have one are found by group, which the server matches exactly.
   */
  findTrainerRuns(
    project: string,
    runNames: readonly string[],
    groups?: ReadonlyMap<string, string>,
  ): Promise<Map<string, WandbRun>>;
  findTrainerRun(project: string, runName: string): Promise<WandbRun | undefined>;
  /** The non-trainer runs of a group (the environment's serve-mode runs), newest first. */
  findEnvironmentRuns(project: string, group: string): Promise<WandbRun[]>;
  /** Sampled history rows (always with _step) of one run, by run id. */
  history(project: string, runId: string, keys: readonly string[], samples?: number): Promise<WandbHistoryRow[]>;
  runUrl(entity: string, project: string, runId: string): string;
}

export function createWandbClient(options: WandbClientOptions): WandbClient {
  const {
    apiKey,
    baseUrl = "https://api.wandb.ai",
    entity,
    appUrl,
    fetch = globalThis.fetch,
    timeoutMs = 10_000,
    pageSize = 50,
    maxPages = 200,
  } = options;
  if (!apiKey) {
    throw new RlError("MISSING_KEYS", "WANDB_API_KEY is not set; add it to the bot's environment to read metrics", {
      details: { missing: ["WANDB_API_KEY"] },
    });
  }
  const graphql = createWandbGraphql({ apiKey, baseUrl, fetch, timeoutMs });
  const app = resolveWandbAppUrl(baseUrl, appUrl);
  const configuredEntity = entity?.trim() || undefined;
  let viewer: Promise<string> | undefined;

  const runUrl = (ent: string, project: string, runId: string): string => buildWandbRunUrl(app, ent, project, runId);

  const viewerEntity = (): Promise<string> => {
    if (viewer) return viewer;
    const asking = (async () => {
      const data = parseAnswer(viewerAnswer, await graphql(VIEWER_QUERY, {}), "Viewer");
      const name = data.viewer?.entity;
      if (!name) {
        throw new RlError("CONFIG", "WandB did not say which entity owns this API key; set WANDB_ENTITY");
      }
      return name;
    })();
    viewer = asking;
    // A failure is not cached: the next call asks again (the network may be back).
    asking.catch(() => {
      if (viewer === asking) viewer = undefined;
    });
    return asking;
  };

  const resolveEntity = async (): Promise<string> => configuredEntity ?? viewerEntity();

  /** Every run matching filters, following pageInfo until the last page. */
  const listRuns = async (project: string, filters: Record<string, unknown>): Promise<WandbRun[]> => {
    const ent = await resolveEntity();
    const runs: WandbRun[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < maxPages; page++) {
      const variables: Record<string, unknown> = {
        project,
        entity: ent,
        cursor,
        perPage: pageSize,
        order: NEWEST_FIRST,
        filters: JSON.stringify(filters),
      };
      const data = parseAnswer(runsAnswer, await graphql(RUNS_QUERY, variables), "Runs");
      // A project nobody has logged to yet is null, which simply means no runs.
      if (!data.project) return runs;
      const { edges, pageInfo } = data.project.runs;
      for (const edge of edges) runs.push(toRun(edge.node, (id) => runUrl(ent, project, id)));
      const next: string | null = pageInfo.endCursor ?? edges.at(-1)?.cursor ?? null;
      if (!pageInfo.hasNextPage || next === null || next === cursor || edges.length === 0) return runs;
      cursor = next;
    }
    return runs;
  };

  const findTrainerRuns = async (
    project: string,
    runNames: readonly string[],
    groups?: ReadonlyMap<string, string>,
  ): Promise<Map<string, WandbRun>> => {
    const names = [...new Set(runNames.filter((n) => n.length > 0))];
    const found = new Map<string, WandbRun>();
    if (names.length === 0) return found;
    const groupOf = (name: string) => groups?.get(name) || undefined;
    const grouped = [...new Set(names.map(groupOf).filter((g): g is string => g !== undefined))];
    const ungrouped = names.filter((name) => groupOf(name) === undefined);
    const runs = await listRuns(
      project,
      grouped.length > 0 ? trainerRunsByGroupFilter(grouped, ungrouped) : trainerRunsFilter(names),
    );
    // Each name's candidates by the stems its display name can be the trainer of: one pass, not one per name.
    const byStem = new Map<string, WandbRun[]>();
    for (const run of runs)
      for (const stem of trainerStemsOf(run.displayName)) byStem.set(stem, [...(byStem.get(stem) ?? []), run]);
    for (const name of names) {
      const group = groupOf(name);
      const mine = (byStem.get(name) ?? []).filter(
        (r) => isTrainerRunOf(r.displayName, name) && (group === undefined || r.group === group),
      );
      const newest = pickNewest(mine);
      if (newest) found.set(name, newest);
    }
    return found;
  };

  return {
    viewerEntity,
    resolveEntity,
    findTrainerRuns,
    async findTrainerRun(project, runName) {
      return (await findTrainerRuns(project, [runName])).get(runName);
    },
    async findEnvironmentRuns(project, group) {
      const runs = await listRuns(project, groupFilter(group));
      return runs.filter((r) => !looksLikeTrainerRun(r.displayName)).sort(newestFirst);
    },
    async history(project, runId, keys, samples = 200) {
      const ent = await resolveEntity();
      const specs = [JSON.stringify({ keys: ["_step", ...keys.filter((k) => k !== "_step")], samples })];
      const data = parseAnswer(
        historyAnswer,
        await graphql(HISTORY_QUERY, { project, entity: ent, name: runId, specs }),
        "RunSampledHistory",
      );
      const run = data.project?.run;
      if (!run) {
        throw new RlError("NOT_FOUND", `WandB has no run '${runId}' in ${ent}/${project}`, {
          details: { entity: ent, project, runId },
        });
      }
      return run.sampledHistory?.[0] ?? [];
    },
    runUrl,
  };
}

/** Every run name this display name is a trainer run of: "a-trainer-b-trainer-c" is one of "a" and of "a-trainer-b". */
function trainerStemsOf(displayName: string): string[] {
  const stems: string[] = [];
  for (let at = displayName.indexOf("-trainer"); at >= 0; at = displayName.indexOf("-trainer", at + 1)) {
    const stem = displayName.slice(0, at);
    if (isTrainerRunOf(displayName, stem)) stems.push(stem);
  }
  return stems;
}

function toRun(node: RunNode, urlOf: (runId: string) => string): WandbRun {
  const summary = parseSummaryMetrics(node.summaryMetrics);
  return {
    id: node.id,
    name: node.name,
    displayName: node.displayName ?? node.name,
    state: node.state ?? "unknown",
    group: node.group ?? null,
    createdAt: node.createdAt ?? null,
    heartbeatAt: node.heartbeatAt ?? null,
    summary,
    lastStep: lastStepOf(node.historyKeys) ?? finiteNumber(summary["_step"]),
    url: urlOf(node.name),
  };
}

function lastStepOf(historyKeys: unknown): number | null {
  // Some API versions send this JSON scalar as a string.
  const value: unknown = typeof historyKeys === "string" ? safeJson(historyKeys) : historyKeys;
  if (typeof value !== "object" || value === null || !("lastStep" in value)) return null;
  return finiteNumber(value.lastStep);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function finiteNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** Newest by createdAt, then by heartbeat: a retried run with the same name replaces the older one. */
function newestFirst(a: WandbRun, b: WandbRun): number {
  return timeOf(b.createdAt) - timeOf(a.createdAt) || timeOf(b.heartbeatAt) - timeOf(a.heartbeatAt);
}

function pickNewest(runs: WandbRun[]): WandbRun | undefined {
  return [...runs].sort(newestFirst)[0];
}

function timeOf(iso: string | null): number {
  // WandB's timestamps are UTC without a zone ("2024-05-01T12:00:00"); read them as UTC, not local time.
  if (!iso) return 0;
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(t) ? 0 : t;
}
