// A local WandB GraphQL server on 127.0.0.1 for tests: checks the API key, answers Viewer, Runs and history.
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { GqlSyntaxError, parseOperation } from "./wandb-graphql-parse.ts";
import { bindVariables, execute } from "./wandb-execute.ts";
import { FakeWandbStore } from "./wandb-store.ts";
import type { FakeRun, FakeRunInput, HistoryRow } from "./wandb-store.ts";
import { readBody, safeJson, send } from "./http-helpers.ts";

export type { FakeRun, FakeRunInput, HistoryRow } from "./wandb-store.ts";

/** "slow:MS" delays every answer by MS milliseconds, then answers normally. */
export type WandbFault = "500" | "401" | "graphql-error" | `slow:${number}` | null;

export interface RecordedWandbRequest {
  operationName: string | null;
  variables: Record<string, unknown>;
  query: string;
  /** The HTTP status answered; 0 while the answer is pending (e.g. a slow fault). */
  status: number;
}

export interface FakeWandbOptions {
  apiKey: string;
  /** The viewer's entity; null makes Viewer answer without one. */
  entity?: string | null;
}

export interface FakeWandb {
  url: string;
  port: number;
  /** Every POST /graphql received, in order (clear with `requests.length = 0`). */
  requests: RecordedWandbRequest[];
  addRun(input: FakeRunInput): FakeRun;
  updateRun(runId: string, patch: Partial<Omit<FakeRun, "name" | "seq">>): FakeRun;
  setHistory(runId: string, rows: HistoryRow[]): void;
  setFault(fault: WandbFault): void;
  /** Answer the next request only with this HTTP status (e.g. 500, or 429 with a Retry-After header), then as usual. */
  failNext(status: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

export async function startFakeWandb({ apiKey, entity = "fake-entity" }: FakeWandbOptions): Promise<FakeWandb> {
  const store = new FakeWandbStore(entity);
  const requests: RecordedWandbRequest[] = [];
  const expectedAuth = `Basic ${Buffer.from(`api:${apiKey}`).toString("base64")}`;
  const timers = new Set<NodeJS.Timeout>();
  let fault: WandbFault = null;
  const failures: Array<{ status: number; headers: Record<string, string> }> = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== "POST" || req.url?.split("?")[0] !== "/graphql") {
      return send(res, 404, { errors: [{ message: "not found" }] });
    }
    const text = await readBody(req);
    const body = safeJson(text);
    const query = isRecord(body) && typeof body["query"] === "string" ? body["query"] : "";
    const variables = isRecord(body) && isRecord(body["variables"]) ? body["variables"] : {};
    const recorded: RecordedWandbRequest = {
      operationName: /^\s*query\s+(\w+)/.exec(query)?.[1] ?? null,
      variables,
      query,
      status: 0,
    };
    requests.push(recorded);
    const answer = (status: number, payload: unknown): void => {
      recorded.status = status;
      send(res, status, payload);
    };

    const failure = failures.shift();
    if (failure) {
      recorded.status = failure.status;
      return send(
        res,
        failure.status,
        { errors: [{ message: `fake WandB: HTTP ${failure.status}` }] },
        failure.headers,
      );
    }
    if (req.headers.authorization !== expectedAuth || fault === "401") {
      return answer(401, { errors: [{ message: "user is not logged in" }] });
    }
    if (fault === "500") return answer(500, "Internal Server Error");
    if (fault === "graphql-error") return answer(200, { errors: [{ message: "fake WandB failure" }], data: null });
    if (fault?.startsWith("slow:")) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(
          () => {
            timers.delete(timer);
            resolve();
          },
          Number(fault?.slice(5)),
        );
        timers.add(timer);
      });
    }
    if (!query) return answer(400, { errors: [{ message: "Must provide query string." }] });

    try {
      const operation = parseOperation(query);
      const data = execute(store.root(), operation, bindVariables(operation, variables));
      answer(200, { data });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      answer(err instanceof GqlSyntaxError ? 400 : 200, { errors: [{ message }], data: null });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      send(res, 500, { errors: [{ message: err instanceof Error ? err.message : String(err) }] });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    addRun: (input) => store.addRun(input),
    updateRun: (runId, patch) => store.updateRun(runId, patch),
    setHistory: (runId, rows) => store.setHistory(runId, rows),
    failNext(status, headers = {}) {
      failures.push({ status, headers });
    },
    setFault(next) {
      fault = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      // A client that gave up on a slow answer may leave its socket open; don't let that hold close() up.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
