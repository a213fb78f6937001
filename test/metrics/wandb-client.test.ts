// The WandB client against the local fake WandB: run look-up by the trainer's real names, paging, history, errors.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RlError } from "../../src/errors.ts";
import { createWandbClient } from "../../src/metrics/wandb-client.ts";
import type { WandbClient } from "../../src/metrics/wandb-client.ts";
import { metricsFromSummary } from "../../src/metrics/wandb-metrics.ts";
import { startFakeWandb } from "../fakes/wandb-server.ts";
import type { FakeWandb } from "../fakes/wandb-server.ts";

const KEY = "wk-local-0123456789abcdef0123456789abcdef";
const PROJECT = "atropos-tinker";

let fake: FakeWandb;
let client: WandbClient;

beforeEach(async () => {
  fake = await startFakeWandb({ apiKey: KEY, entity: "alice" });
  client = createWandbClient({ apiKey: KEY, baseUrl: fake.url, entity: "team-rl", appUrl: "https://wandb.example" });
});

afterEach(async () => {
  await fake.close();
});

describe("findTrainerRun", () => {
  it("finds the run the trainer names '{wandb_run_name}-trainer-{suffix}', not the seed's '{env}-{run_id}'", async () => {
    // The seed set wandb_run_name = "{env}-{run_id}" and then looked for exactly that display name.
    const wandbRunName = "gsm8k-r42";
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "gsm8k-r42", name: "decoy001" });
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "gsm8k-2024-05-01-a1b2c3", group: "g1" });
    const trainer = fake.addRun({
      entity: "team-rl",
      project: PROJECT,
      displayName: "gsm8k-r42-trainer-x7k2",
      name: "tr42abcd",
      group: "g1",
      state: "running",
      summary: { _step: 12, "reward/mean": 0.25, "train/loss": 1.5, _runtime: 60 },
    });

    const run = await client.findTrainerRun(PROJECT, wandbRunName);

    expect(run).toMatchObject({
      name: "tr42abcd",
      displayName: "gsm8k-r42-trainer-x7k2",
      state: "running",
      group: "g1",
      createdAt: trainer.createdAt,
      lastStep: 12,
      url: "https://wandb.example/team-rl/atropos-tinker/runs/tr42abcd",
    });
    expect(run?.summary["reward/mean"]).toBe(0.25);
    expect(typeof run?.id).toBe("string");
    expect(metricsFromSummary(run?.summary ?? {})).toMatchObject({ step: 12, rewardMean: 0.25, loss: 1.5 });
  });

  it("finds nothing when only the seed-style display name exists", async () => {
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "gsm8k-r42" });
    await expect(client.findTrainerRun(PROJECT, "gsm8k-r42")).resolves.toBeUndefined();
  });

  it("matches names literally (regex metacharacters escaped) and not names that merely extend them", async () => {
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "runX1-trainer-aaa", name: "wrong001" });
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "run.1-trainerish", name: "wrong002" });
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "run.1-trainer-bbb", name: "right001" });
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "a+(b)[c]-trainer-ccc", name: "right002" });

    expect((await client.findTrainerRun(PROJECT, "run.1"))?.name).toBe("right001");
    expect((await client.findTrainerRun(PROJECT, "a+(b)[c]"))?.name).toBe("right002");
    expect(await client.findTrainerRun(PROJECT, "run")).toBeUndefined();
  });

  it("keeps the newest trainer run when a name has several", async () => {
    fake.addRun({
      entity: "team-rl",
      project: PROJECT,
      displayName: "n-trainer-1",
      name: "old",
      createdAt: "2024-05-01T10:00:00",
    });
    fake.addRun({
      entity: "team-rl",
      project: PROJECT,
      displayName: "n-trainer-2",
      name: "new",
      createdAt: "2024-05-02T10:00:00",
    });
    fake.addRun({
      entity: "team-rl",
      project: PROJECT,
      displayName: "n-trainer-3",
      name: "mid",
      createdAt: "2024-05-01T12:00:00",
    });
    expect((await client.findTrainerRun(PROJECT, "n"))?.name).toBe("new");
  });

  it("answers undefined for a project nobody has logged to", async () => {
    await expect(client.findTrainerRun("no-such-project", "x")).resolves.toBeUndefined();
  });
});

describe("findTrainerRuns batching", () => {
  it("looks up 100 run names with one paged query per project", async () => {
    const names = Array.from({ length: 100 }, (_, i) => `env-run${i}`);
    for (const name of names) {
      fake.addRun({ entity: "team-rl", project: PROJECT, displayName: `${name}-trainer-s${name.length}` });
      fake.addRun({ entity: "team-rl", project: PROJECT, displayName: `${name}-2024-05-01-abcdef` });
    }
    fake.addRun({ entity: "team-rl", project: "other", displayName: "env-run1-trainer-zzz", name: "otherrun" });
    const paged = createWandbClient({ apiKey: KEY, baseUrl: fake.url, entity: "team-rl", pageSize: 30 });

    const found = await paged.findTrainerRuns(PROJECT, names);
    const other = await paged.findTrainerRuns("other", names);

    expect(found.size).toBe(100);
    for (const name of names) expect(found.get(name)?.displayName.startsWith(`${name}-trainer-`)).toBe(true);
    expect([...other.keys()]).toEqual(["env-run1"]);

    const mine = fake.requests.filter((r) => r.variables["project"] === PROJECT);
    expect(mine).toHaveLength(4); // 100 trainer runs / 30 per page
    expect(mine.every((r) => r.operationName === "Runs")).toBe(true);
    // One logical query: the same filter on every page, each page continuing from the previous cursor.
    expect(new Set(mine.map((r) => r.variables["filters"])).size).toBe(1);
    expect(mine[0]?.variables["cursor"]).toBeNull();
    expect(new Set(mine.map((r) => r.variables["cursor"])).size).toBe(4);
    const filter = JSON.parse(String(mine[0]?.variables["filters"])) as { $or: unknown[] };
    expect(filter.$or).toHaveLength(100);
    expect(filter.$or[0]).toEqual({ displayName: { $regex: "^env-run0-trainer" } });
    expect(fake.requests.filter((r) => r.variables["project"] === "other")).toHaveLength(1);
  });

  it("finds runs that have a group by that group, in one query per project with no name patterns", async () => {
    const names = Array.from({ length: 60 }, (_, i) => `env-run${i}`);
    for (const name of names) {
      fake.addRun({ entity: "team-rl", project: PROJECT, displayName: `${name}-trainer-abc`, group: name });
      // The environment's own run in the same group, and another group's trainer of the same name.
      fake.addRun({ entity: "team-rl", project: PROJECT, displayName: `${name}-serve`, group: name });
      fake.addRun({ entity: "team-rl", project: PROJECT, displayName: `${name}-trainer-old`, group: "elsewhere" });
    }
    const groups = new Map(names.map((name) => [name, name]));
    const found = await client.findTrainerRuns(PROJECT, [...names, "ungrouped"], groups);

    expect(found.size).toBe(60);
    for (const name of names) {
      expect(found.get(name)?.displayName).toBe(`${name}-trainer-abc`);
      expect(found.get(name)?.group).toBe(name);
    }
    const filters = new Set(fake.requests.map((r) => String(r.variables["filters"])));
    expect(filters.size).toBe(1);
    // The list of groups, and a prefix pattern only for the one name without a group.
    expect(JSON.parse([...filters][0]!)).toEqual({
      $or: [{ group: { $in: names } }, { displayName: { $regex: "^ungrouped-trainer" } }],
    });
  });

  it("sends only the list of groups when every run has one", async () => {
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "a-trainer-1", group: "ga" });
    const found = await client.findTrainerRuns(PROJECT, ["a"], new Map([["a", "ga"]]));
    expect(found.get("a")?.displayName).toBe("a-trainer-1");
    expect(JSON.parse(String(fake.requests[0]?.variables["filters"]))).toEqual({ group: { $in: ["ga"] } });
  });

  it("sends nothing for an empty list", async () => {
    expect((await client.findTrainerRuns(PROJECT, [])).size).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("entity", () => {
  it("falls back to the viewer's entity, asked once", async () => {
    fake.addRun({ project: PROJECT, displayName: "a-trainer-1", name: "viewerrun" });
    const noEntity = createWandbClient({ apiKey: KEY, baseUrl: fake.url });

    const run = await noEntity.findTrainerRun(PROJECT, "a");
    await noEntity.findTrainerRun(PROJECT, "a");

    expect(run?.url).toBe(`${fake.url}/alice/atropos-tinker/runs/viewerrun`);
    expect(fake.requests.map((r) => r.operationName)).toEqual(["Viewer", "Runs", "Runs"]);
    expect(fake.requests[1]?.variables["entity"]).toBe("alice");
    await expect(noEntity.viewerEntity()).resolves.toBe("alice");
  });

  it("asks the user to set WANDB_ENTITY when the viewer has none", async () => {
    const nobody = await startFakeWandb({ apiKey: KEY, entity: null });
    try {
      const c = createWandbClient({ apiKey: KEY, baseUrl: nobody.url });
      await expect(c.findTrainerRun(PROJECT, "a")).rejects.toMatchObject({ code: "CONFIG" });
    } finally {
      await nobody.close();
    }
  });
});

describe("findEnvironmentRuns", () => {
  it("returns the group's environment runs, whose metrics carry the wandb_prepend prefix", async () => {
    fake.addRun({
      entity: "team-rl",
      project: PROJECT,
      displayName: "gsm8k-r1-trainer-abc",
      group: "grp",
      summary: { _step: 30, "reward/mean": 0.6 },
    });
    fake.addRun({
      entity: "team-rl",
      project: PROJECT,
      displayName: "gsm8k-2024-05-01-q1w2e3",
      name: "env1",
      group: "grp",
      summary: { "gsm8k_train/percent_correct": 0.42, "gsm8k_eval/percent_correct": 0.5 },
    });
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "other-2024-05-01-zzzzzz", group: "elsewhere" });

    const envRuns = await client.findEnvironmentRuns(PROJECT, "grp");
    const trainer = await client.findTrainerRun(PROJECT, "gsm8k-r1");

    expect(envRuns.map((r) => r.name)).toEqual(["env1"]);
    expect(JSON.parse(String(fake.requests[0]?.variables["filters"]))).toEqual({ group: "grp" });
    expect(metricsFromSummary(trainer?.summary ?? {}, envRuns[0]?.summary)).toEqual({
      step: 30,
      rewardMean: 0.6,
      loss: null,
      percentCorrect: 0.42,
      evalPercentCorrect: 0.5,
    });
  });
});

describe("history", () => {
  it("reads sampledHistory with _step first and the requested sample count", async () => {
    const run = fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "h-trainer-1", name: "hist0001" });
    fake.setHistory(
      run.name,
      Array.from({ length: 300 }, (_, i) =>
        i % 3 === 0
          ? { _step: i, "train/loss": 1 / (i + 1) }
          : { _step: i, "reward/mean": i / 300, "train/loss": 1 / (i + 1) },
      ),
    );

    const rows = await client.history(PROJECT, "hist0001", ["reward/mean"], 50);

    expect(fake.requests[0]?.variables["specs"]).toEqual([
      JSON.stringify({ keys: ["_step", "reward/mean"], samples: 50 }),
    ]);
    expect(rows).toHaveLength(50);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(["_step", "reward/mean"]);
    expect(rows[0]?.["_step"]).toBe(1);
    expect(rows.at(-1)?.["_step"]).toBe(299);
    expect((await client.findTrainerRun(PROJECT, "h"))?.lastStep).toBe(299);
  });

  it("is NOT_FOUND for an unknown run", async () => {
    fake.addRun({ entity: "team-rl", project: PROJECT, displayName: "x" });
    await expect(client.history(PROJECT, "nope", ["reward/mean"])).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("run URLs", () => {
  it("follow the app URL rule", () => {
    const url = (baseUrl: string, appUrl?: string): string =>
      createWandbClient({ apiKey: KEY, baseUrl, ...(appUrl === undefined ? {} : { appUrl }) }).runUrl(
        "ent",
        "proj",
        "abc123",
      );
    expect(url("https://api.wandb.ai")).toBe("https://wandb.ai/ent/proj/runs/abc123");
    expect(url("https://api.company.example/")).toBe("https://app.company.example/ent/proj/runs/abc123");
    expect(url("http://localhost:8080")).toBe("http://localhost:8080/ent/proj/runs/abc123");
    expect(url("https://api.wandb.ai", "https://my.wandb.app/")).toBe("https://my.wandb.app/ent/proj/runs/abc123");
    expect(url("https://api.wandb.ai", "")).toBe("https://wandb.ai/ent/proj/runs/abc123");
  });
});

describe("errors", () => {
  const keyForms = [KEY, Buffer.from(`api:${KEY}`).toString("base64")];

  async function failure(promise: Promise<unknown>): Promise<RlError> {
    const err: unknown = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RlError);
    const rl = err as RlError;
    // The key must not leak through anything a handler might print or log.
    const visible = [rl.message, String(rl), JSON.stringify(rl.details), rl.stack ?? "", String(rl.cause ?? "")].join(
      "\n",
    );
    for (const form of keyForms) expect(visible).not.toContain(form);
    return rl;
  }

  it("reports a refused key as UPSTREAM naming WANDB_API_KEY", async () => {
    const wrong = createWandbClient({ apiKey: "wk-wrong-key-987654321", baseUrl: fake.url, entity: "team-rl" });
    const err = await failure(wrong.findTrainerRun(PROJECT, "a"));
    expect(err.code).toBe("UPSTREAM");
    expect(err.message).toBe("WandB refused the API key; check WANDB_API_KEY");
    expect(err.details["status"]).toBe(401);

    fake.setFault("401");
    const faulted = await failure(client.findTrainerRun(PROJECT, "a"));
    expect(faulted.message).toContain("WANDB_API_KEY");
  });

  it("reports HTTP 500 as UPSTREAM with the status", async () => {
    fake.setFault("500");
    const err = await failure(client.findTrainerRun(PROJECT, "a"));
    expect(err.code).toBe("UPSTREAM");
    expect(err.details["status"]).toBe(500);
    expect(err.message).toContain("500");
  });

  it("reports GraphQL errors as UPSTREAM with their message", async () => {
    fake.setFault("graphql-error");
    const err = await failure(client.history(PROJECT, "r", ["reward/mean"]));
    expect(err.code).toBe("UPSTREAM");
    expect(err.message).toContain("fake WandB failure");
  });

  it("gives up after timeoutMs with TIMEOUT", async () => {
    fake.setFault("slow:3000");
    const quick = createWandbClient({ apiKey: KEY, baseUrl: fake.url, entity: "team-rl", timeoutMs: 100 });
    const err = await failure(quick.findTrainerRun(PROJECT, "a"));
    expect(err.code).toBe("TIMEOUT");
  });

  it("reports an unreachable server as UPSTREAM", async () => {
    const gone = await startFakeWandb({ apiKey: KEY });
    await gone.close();
    const c = createWandbClient({ apiKey: KEY, baseUrl: gone.url, entity: "team-rl" });
    const err = await failure(c.findTrainerRun(PROJECT, "a"));
    expect(err.code).toBe("UPSTREAM");
    expect(err.message).toContain("Could not reach WandB");
  });

  it("scrubs the key even when the server echoes it", async () => {
    const echo: typeof fetch = async (_url, init) =>
      new Response(
        JSON.stringify({
          errors: [{ message: `bad header ${String(new Headers(init?.headers).get("authorization"))} for ${KEY}` }],
        }),
        {
          status: 400,
          headers: { "Content-Type": "application/json" },
        },
      );
    const c = createWandbClient({ apiKey: KEY, entity: "team-rl", fetch: echo });
    const err = await failure(c.findTrainerRun(PROJECT, "a"));
    expect(err.message).toContain("[redacted]");
  });

  it("reports an answer of the wrong shape as UPSTREAM", async () => {
    const odd: typeof fetch = async () => new Response(JSON.stringify({ data: { project: { runs: { edges: "x" } } } }));
    const c = createWandbClient({ apiKey: KEY, entity: "team-rl", fetch: odd });
    expect((await failure(c.findTrainerRun(PROJECT, "a"))).code).toBe("UPSTREAM");
  });

  it("refuses to start without a key, naming WANDB_API_KEY", () => {
    expect(() => createWandbClient({ apiKey: "" })).toThrow(expect.objectContaining({ code: "MISSING_KEYS" }));
  });
});

describe("viewer cache", () => {
  it("asks again after a failed Viewer query", async () => {
    const c = createWandbClient({ apiKey: KEY, baseUrl: fake.url });
    fake.setFault("500");
    await expect(c.viewerEntity()).rejects.toMatchObject({ code: "UPSTREAM" });
    fake.setFault(null);
    await expect(c.viewerEntity()).resolves.toBe("alice");
    await expect(c.resolveEntity()).resolves.toBe("alice");
    // The lasting 500 was tried three times; the next call asks again.
    expect(fake.requests.map((r) => r.operationName)).toEqual(["Viewer", "Viewer", "Viewer", "Viewer"]);
  });

  it("rides out one 500 and one 429 without the caller seeing them", async () => {
    const c = createWandbClient({ apiKey: KEY, baseUrl: fake.url });
    fake.requests.length = 0;
    fake.failNext(500);
    await expect(c.viewerEntity()).resolves.toBe("alice");
    fake.failNext(429, { "Retry-After": "1" });
    const again = createWandbClient({ apiKey: KEY, baseUrl: fake.url });
    await expect(again.viewerEntity()).resolves.toBe("alice");
    expect(fake.requests.map((r) => r.status)).toEqual([500, 200, 429, 200]);
  });
});
