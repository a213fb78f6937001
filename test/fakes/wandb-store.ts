// The fake WandB's data: runs by entity and project, their history, and the GraphQL types answering over them.
import { gqlObject } from "./wandb-execute.ts";
import type { GqlObject } from "./wandb-execute.ts";
import { FilterError, matchesFilter } from "./wandb-filters.ts";

export interface FakeRunInput {
  project: string;
  displayName: string;
  /** The run id; generated when omitted. */
  name?: string;
  /** Defaults to the viewer's entity. */
  entity?: string;
  state?: string;
  group?: string | null;
  /** WandB's format is UTC without a zone, "2024-05-01T12:00:00"; generated in insertion order when omitted. */
  createdAt?: string;
  heartbeatAt?: string;
  summary?: Record<string, unknown>;
  /** historyKeys.lastStep; defaults to the history's last _step, else summary._step. */
  lastStep?: number;
  tags?: string[];
  config?: Record<string, unknown>;
}

export interface FakeRun {
  entity: string;
  project: string;
  name: string;
  displayName: string;
  state: string;
  group: string | null;
  createdAt: string;
  heartbeatAt: string;
  summary: Record<string, unknown>;
  lastStep: number | undefined;
  tags: string[];
  config: Record<string, unknown>;
  /** Insertion order, the tie-break when two runs share a timestamp. */
  seq: number;
}

export type HistoryRow = Record<string, unknown>;

const EPOCH = Date.UTC(2024, 0, 1);

export class FakeWandbStore {
  readonly runs: FakeRun[] = [];
  private readonly histories = new Map<string, HistoryRow[]>();
  private seq = 0;

  constructor(readonly viewerEntity: string | null) {}

  addRun(input: FakeRunInput): FakeRun {
    const seq = ++this.seq;
    const createdAt = input.createdAt ?? wandbTime(EPOCH + seq * 1000);
    const entity = input.entity ?? this.viewerEntity ?? "fake-entity";
    const name = input.name ?? `fake${seq.toString(36).padStart(4, "0")}`;
    if (this.runs.some((r) => r.entity === entity && r.project === input.project && r.name === name)) {
      throw new Error(`Run ${entity}/${input.project}/${name} already exists in the fake`);
    }
    const run: FakeRun = {
      entity,
      project: input.project,
      name,
      displayName: input.displayName,
      state: input.state ?? "running",
      group: input.group ?? null,
      createdAt,
      heartbeatAt: input.heartbeatAt ?? createdAt,
      summary: input.summary ?? {},
      lastStep: input.lastStep,
      tags: input.tags ?? [],
      config: input.config ?? {},
      seq,
    };
    this.runs.push(run);
    return run;
  }

  updateRun(runId: string, patch: Partial<Omit<FakeRun, "name" | "seq">>): FakeRun {
    const run = this.runs.find((r) => r.name === runId);
    if (!run) throw new Error(`No run '${runId}' in the fake`);
    Object.assign(run, patch);
    return run;
  }

  setHistory(runId: string, rows: HistoryRow[]): void {
    // Rows without _step get their index, as WandB numbers steps when the logger does not.
    this.histories.set(
      runId,
      rows.map((row, i) => ({ _step: i, ...row })),
    );
  }

  /** The root query type. */
  root(): GqlObject {
    return gqlObject("Query", {
      viewer: () => gqlObject("User", { entity: this.viewerEntity, username: this.viewerEntity, id: "VXNlcjox" }),
      project: ({ name, entityName }: Record<string, unknown>) => {
        const entity = typeof entityName === "string" ? entityName : this.viewerEntity;
        const runs = this.runs.filter((r) => r.entity === entity && r.project === name);
        // WandB answers null for a project nobody has logged to.
        return runs.length === 0 ? null : this.projectType(String(entity), String(name), runs);
      },
    });
  }

  private projectType(entity: string, name: string, runs: FakeRun[]): GqlObject {
    return gqlObject("Project", {
      id: Buffer.from(`Project:v1:${name}:${entity}`).toString("base64"),
      name,
      entityName: entity,
      runCount: runs.length,
      run: ({ name: runId }: Record<string, unknown>) => {
        const run = runs.find((r) => r.name === runId);
        return run ? this.runType(run) : null;
      },
      runs: (args: Record<string, unknown>) => this.runsConnection(runs, args),
    });
  }

  private runsConnection(runs: FakeRun[], args: Record<string, unknown>): GqlObject {
    const filters = parseFilters(args["filters"]);
    const regexCache = new Map<string, RegExp>();
    const matching = runs.filter((r) => matchesFilter(r, filters, regexCache)).sort(orderBy(args["order"]));
    const first = typeof args["first"] === "number" ? args["first"] : 50;
    const start = args["after"] === null || args["after"] === undefined ? 0 : decodeCursor(args["after"]) + 1;
    const page = matching.slice(start, start + first);
    const edges = page.map((run, i) =>
      gqlObject("RunEdge", { node: this.runType(run), cursor: encodeCursor(start + i) }),
    );
    const last = page.length > 0 ? encodeCursor(start + page.length - 1) : null;
    return gqlObject("RunConnection", {
      totalCount: matching.length,
      edges,
      pageInfo: gqlObject("PageInfo", {
        startCursor: page.length > 0 ? encodeCursor(start) : null,
        endCursor: last,
        hasNextPage: start + page.length < matching.length,
        hasPreviousPage: start > 0,
      }),
    });
  }

  private runType(run: FakeRun): GqlObject {
    const history = this.histories.get(run.name) ?? [];
    const lastHistoryStep = history.reduce<number | undefined>(
      (max, row) =>
        typeof row["_step"] === "number" && (max === undefined || row["_step"] > max) ? row["_step"] : max,
      undefined,
    );
    const summaryStep = typeof run.summary["_step"] === "number" ? run.summary["_step"] : undefined;
    return gqlObject("Run", {
      id: Buffer.from(`Run:v1:${run.name}:${run.project}:${run.entity}`).toString("base64"),
      name: run.name,
      displayName: run.displayName,
      state: run.state,
      group: run.group,
      createdAt: run.createdAt,
      heartbeatAt: run.heartbeatAt,
      tags: run.tags,
      // JSONString scalars: WandB sends these as strings, not objects.
      summaryMetrics: JSON.stringify(run.summary),
      config: JSON.stringify(run.config),
      historyKeys: { lastStep: run.lastStep ?? lastHistoryStep ?? summaryStep ?? null },
      sampledHistory: ({ specs }: Record<string, unknown>) => sampleHistory(history, specs),
    });
  }
}

/** One list per spec: rows holding every requested key, cut down to the keys and spread evenly to `samples`. */
function sampleHistory(history: HistoryRow[], specs: unknown): HistoryRow[][] {
  if (!Array.isArray(specs)) throw new FilterError("specs must be a list of JSON strings");
  return specs.map((raw: unknown) => {
    const spec: unknown = typeof raw === "string" ? JSON.parse(raw) : raw;
    const keys = isRecord(spec) && Array.isArray(spec["keys"]) ? spec["keys"].map(String) : [];
    const samples = isRecord(spec) && typeof spec["samples"] === "number" ? spec["samples"] : 500;
    const rows = history
      .filter((row) => keys.every((k) => row[k] !== undefined))
      .map((row) => Object.fromEntries(keys.map((k) => [k, row[k]])));
    return evenly(rows, samples);
  });
}

function evenly<T>(rows: T[], samples: number): T[] {
  if (rows.length <= samples) return rows;
  if (samples <= 1) return rows.slice(-1);
  const picked: T[] = [];
  for (let i = 0; i < samples; i++) {
    const row = rows[Math.round((i * (rows.length - 1)) / (samples - 1))];
    if (row !== undefined) picked.push(row);
  }
  return picked;
}

function parseFilters(raw: unknown): unknown {
  if (raw === null || raw === undefined || raw === "") return {};
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new FilterError("filters is not valid JSON");
  }
}

const ORDER_FIELDS: Record<string, (r: FakeRun) => string> = {
  created_at: (r) => r.createdAt,
  createdAt: (r) => r.createdAt,
  heartbeat_at: (r) => r.heartbeatAt,
  heartbeatAt: (r) => r.heartbeatAt,
  name: (r) => r.name,
  display_name: (r) => r.displayName,
  displayName: (r) => r.displayName,
};

function orderBy(order: unknown): (a: FakeRun, b: FakeRun) => number {
  const spec = typeof order === "string" && order !== "" ? order : "-created_at";
  const descending = spec.startsWith("-");
  const field = spec.replace(/^[-+]/, "");
  const key = ORDER_FIELDS[field];
  if (!key) throw new FilterError(`The fake cannot order by '${field}'`);
  const sign = descending ? -1 : 1;
  return (a, b) => sign * (key(a).localeCompare(key(b)) || a.seq - b.seq);
}

function encodeCursor(index: number): string {
  return Buffer.from(`cursor:${index}`).toString("base64");
}

function decodeCursor(cursor: unknown): number {
  const match = typeof cursor === "string" ? /^cursor:(\d+)$/.exec(Buffer.from(cursor, "base64").toString()) : null;
  if (!match?.[1]) throw new FilterError(`Invalid cursor ${JSON.stringify(cursor)}`);
  return Number(match[1]);
}

function wandbTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
