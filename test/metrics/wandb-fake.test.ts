// The fake WandB itself: filters, paging, GraphQL checks and auth, so other tests can trust it (1,000 runs too).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWandbClient } from "../../src/metrics/wandb-client.ts";
import { RUNS_QUERY } from "../../src/metrics/wandb-queries.ts";
import { matchesFilter } from "../fakes/wandb-filters.ts";
import type { FilterableRun } from "../fakes/wandb-filters.ts";
import { startFakeWandb } from "../fakes/wandb-server.ts";
import type { FakeWandb } from "../fakes/wandb-server.ts";

const KEY = "fake-test-key";
const AUTH = `Basic ${Buffer.from(`api:${KEY}`).toString("base64")}`;

describe("matchesFilter", () => {
  const run: FilterableRun = {
    name: "r1",
    displayName: "gsm8k-r1-trainer-x",
    group: "g",
    state: "running",
    createdAt: "2024-01-01T00:00:00",
    tags: ["trainer"],
  };

  it("evaluates equality, $regex, $in, $and, $or and snake_case names", () => {
    expect(matchesFilter(run, {})).toBe(true);
    expect(matchesFilter(run, { group: "g", state: "running" })).toBe(true);
    expect(matchesFilter(run, { display_name: "gsm8k-r1" })).toBe(false);
    expect(matchesFilter(run, { displayName: { $regex: "^gsm8k-r1-trainer" } })).toBe(true);
    expect(matchesFilter(run, { state: { $in: ["finished", "crashed"] } })).toBe(false);
    expect(matchesFilter(run, { $or: [{ group: "nope" }, { name: "r1" }] })).toBe(true);
    expect(matchesFilter(run, { $and: [{ group: "g" }, { state: { $ne: "running" } }] })).toBe(false);
    expect(matchesFilter(run, { tags: "trainer" })).toBe(true);
  });

  it("refuses fields and operators it cannot judge", () => {
    expect(() => matchesFilter(run, { config: 1 })).toThrow(/cannot filter/);
    expect(() => matchesFilter(run, { state: { $where: "x" } })).toThrow(/operator/);
  });
});

describe("fake WandB server", () => {
  let fake: FakeWandb;
  const post = async (body: unknown, auth = AUTH): Promise<{ status: number; json: unknown }> => {
    const res = await fetch(`${fake.url}/graphql`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as unknown };
  };

  beforeEach(async () => {
    fake = await startFakeWandb({ apiKey: KEY });
  });
  afterEach(async () => {
    await fake.close();
  });

  it("answers 401 without the right Basic auth and records the request", async () => {
    expect((await post({ query: "query Viewer { viewer { entity } }" }, "Basic bm9wZQ==")).status).toBe(401);
    expect(fake.requests[0]).toMatchObject({ operationName: "Viewer", status: 401 });
  });

  it("pages through every matching run exactly once, newest first", async () => {
    for (let i = 0; i < 7; i++) fake.addRun({ project: "p", displayName: `r${i}`, group: i % 2 ? "odd" : "even" });
    const seen: string[] = [];
    let cursor: unknown = null;
    for (;;) {
      const { json } = await post({
        query: RUNS_QUERY,
        variables: {
          project: "p",
          entity: "fake-entity",
          cursor,
          perPage: 2,
          filters: JSON.stringify({ group: "even" }),
        },
      });
      const runs = (
        json as {
          data: {
            project: {
              runs: {
                edges: Array<{ node: { displayName: string } }>;
                pageInfo: { endCursor: string; hasNextPage: boolean };
              };
            };
          };
        }
      ).data.project.runs;
      seen.push(...runs.edges.map((e) => e.node.displayName));
      if (!runs.pageInfo.hasNextPage) break;
      cursor = runs.pageInfo.endCursor;
    }
    expect(seen).toEqual(["r6", "r4", "r2", "r0"]);
  });

  it("returns summaryMetrics as a JSON string and historyKeys with lastStep", async () => {
    fake.addRun({ project: "p", displayName: "d", name: "id1", summary: { _step: 3, "reward/mean": 1 } });
    const { json } = await post({
      query:
        'query Q { project(name: "p", entityName: "fake-entity") { run(name: "id1") { summaryMetrics historyKeys s: state } } }',
    });
    expect(json).toEqual({
      data: {
        project: { run: { summaryMetrics: '{"_step":3,"reward/mean":1}', historyKeys: { lastStep: 3 }, s: "running" } },
      },
    });
  });

  it("rejects unknown fields, missing required variables and bad syntax like a GraphQL server", async () => {
    fake.addRun({ project: "p", displayName: "d" });
    const unknown = await post({ query: "query { viewer { entity secretField } }" });
    expect(JSON.stringify(unknown.json)).toContain("Cannot query field");
    const missing = await post({ query: RUNS_QUERY, variables: { project: "p" } });
    expect(JSON.stringify(missing.json)).toContain("$entity");
    const syntax = await post({ query: "query { viewer { entity }" });
    expect(syntax.status).toBe(400);
  });

  it("serves 1,000 runs to the client in a batched look-up", async () => {
    const names = Array.from({ length: 250 }, (_, i) => `bulk-${i}`);
    for (let i = 0; i < 1000; i++) {
      fake.addRun({
        project: "big",
        displayName: i < 250 ? `bulk-${i}-trainer-s` : `noise-${i}-2024-01-01-abcdef`,
        group: `g${i % 10}`,
      });
    }
    const client = createWandbClient({ apiKey: KEY, baseUrl: fake.url, entity: "fake-entity", pageSize: 100 });
    const found = await client.findTrainerRuns("big", names);
    expect(found.size).toBe(250);
    expect(fake.requests).toHaveLength(3);
    expect((await client.findEnvironmentRuns("big", "g3")).length).toBe(75);
  });
});
