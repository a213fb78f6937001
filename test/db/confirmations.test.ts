// The confirmations repository on a real SQLite file: one answer per prompt (compare-and-set), across connections
// and processes; expiry; secrets never stored.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIRMATION_RETENTION_MS, createConfirmationsRepo, type NewConfirmation } from "../../db/confirmations.ts";
import { openDatabase, type Db } from "../../db/open-database.ts";
import { PACKAGE_ROOT } from "../../src/config.ts";
import { tempDir } from "../helpers/test-services.ts";
import { trackProcess } from "../helpers/children.ts";

const TTL = 15 * 60_000;
const SECRET = "sk-very-secret-value-123";
const redact = (s: string) => s.split(SECRET).join("[redacted]");
const slack = { platform: "slack", workspace: "T1", channel: "C1" };
const stop: NewConfirmation = {
  channel: slack,
  askerId: "U1",
  askerName: "alice",
  command: "stop",
  commandText: '/rl stop "feed0001"',
  args: { run: "feed0001" },
};

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function open(file: string): Db {
  const db = openDatabase(file);
  opened.push(db);
  return db;
}

const dbFile = () => path.join(tempDir("rl-confirm-"), "rl-chatops.db");

describe("confirmations repository", () => {
  it("records a pending prompt for its asker with an unguessable url-safe id and an expiry", () => {
    let t = 1_000_000;
    const repo = createConfirmationsRepo(open(dbFile()), { now: () => t, ttlMs: TTL, redact });
    const a = repo.create(stop);
    const b = repo.create(stop);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(b.id).not.toBe(a.id);
    expect(repo.get(a.id)).toEqual({
      ...stop,
      id: a.id,
      createdAt: t,
      expiresAt: t + TTL,
      state: "pending",
      answeredBy: undefined,
      answeredByName: undefined,
      answeredAt: undefined,
    });
    expect(repo.get("not-an-id")).toBeUndefined();
    expect(repo.get("A".repeat(22))).toBeUndefined();
    t += 1;
  });

  it("lets one claim win, once: a second confirm, or a cancel after it, changes nothing", () => {
    let t = 1_000_000;
    const repo = createConfirmationsRepo(open(dbFile()), { now: () => t, ttlMs: TTL, redact });
    const { id } = repo.create(stop);
    t += 5_000;
    expect(repo.claim(id, "confirmed", { id: "U1", name: "alice" })).toBe(true);
    t += 6_000;
    expect(repo.claim(id, "confirmed", { id: "U1", name: "alice" })).toBe(false);
    expect(repo.claim(id, "cancelled", { id: "UADMIN" })).toBe(false);
    expect(repo.get(id)).toMatchObject({
      state: "confirmed",
      answeredBy: "U1",
      answeredByName: "alice",
      answeredAt: 1_005_000,
    });
    expect(repo.claim("missing-id-but-valid--", "confirmed", { id: "U1" })).toBe(false);
  });

  it("cannot be claimed once expired, and stays pending", () => {
    let t = 1_000_000;
    const repo = createConfirmationsRepo(open(dbFile()), { now: () => t, ttlMs: TTL, redact });
    const { id } = repo.create(stop);
    t += TTL - 1;
    const other = repo.create(stop);
    t += 1;
    expect(repo.claim(id, "confirmed", { id: "U1" })).toBe(false);
    expect(repo.claim(id, "cancelled", { id: "U1" })).toBe(false);
    expect(repo.get(id)?.state).toBe("pending");
    expect(repo.claim(other.id, "cancelled", { id: "U1" })).toBe(true);
  });

  it("deletes rows a day past their expiry when new prompts are made", () => {
    let t = 1_000_000;
    const repo = createConfirmationsRepo(open(dbFile()), { now: () => t, ttlMs: TTL, redact });
    const old = repo.create(stop);
    t += TTL + CONFIRMATION_RETENTION_MS - 1;
    repo.create(stop);
    expect(repo.get(old.id)).toBeDefined();
    t += 2;
    repo.create(stop);
    expect(repo.get(old.id)).toBeUndefined();
  });

  it("never stores a secret: a command whose text or arguments the redactor would change is refused", () => {
    const db = open(dbFile());
    const repo = createConfirmationsRepo(db, { ttlMs: TTL, redact });
    expect(() =>
      repo.create({
        ...stop,
        commandText: `/rl test --base-url http://x/${SECRET}`,
        args: { base_url: `http://x/${SECRET}` },
      }),
    ).toThrow(/secrets/);
    expect(() => repo.create({ ...stop, args: { run: SECRET } })).toThrow(expect.objectContaining({ code: "USAGE" }));
    expect(db.prepare("SELECT count(*) AS n FROM confirmations").get()).toEqual({ n: 0 });
  });

  it("lets exactly one of two connections on the same file win each claim", () => {
    const file = dbFile();
    const first = createConfirmationsRepo(open(file), { ttlMs: TTL, redact });
    const second = createConfirmationsRepo(open(file), { ttlMs: TTL, redact });
    const { id } = first.create(stop);
    expect(second.get(id)?.state).toBe("pending");
    expect(second.claim(id, "cancelled", { id: "UADMIN" })).toBe(true);
    expect(first.claim(id, "confirmed", { id: "U1" })).toBe(false);
    expect(first.get(id)).toMatchObject({ state: "cancelled", answeredBy: "UADMIN" });
  });

  it("lets exactly one of two processes claiming at the same moment win each prompt", async () => {
    const dir = tempDir("rl-confirm-race-");
    const file = path.join(dir, "rl-chatops.db");
    const goFile = path.join(dir, "go");
    const repo = createConfirmationsRepo(open(file), { ttlMs: TTL, redact });
    const ids = Array.from({ length: 200 }, () => repo.create(stop).id);
    const worker = path.join(PACKAGE_ROOT, "test", "db", "claim-worker.ts");
    const children = ["A", "B"].map((who) => {
      const child = spawn(process.execPath, ["--import", "tsx", worker, file, goFile, who, ...ids], {
        cwd: PACKAGE_ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      trackProcess(child);
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      // "close", not "exit": a child can have exited while this process has not yet read the end of its stdout.
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout.on("data", () => out.includes("ready\n") && resolve());
        child.on("close", (code) =>
          reject(new Error(`claim worker ${who} exited ${code} before it was ready: ${err}`)),
        );
      });
      const done = new Promise<string[]>((resolve, reject) =>
        child.on("close", (code) =>
          code === 0
            ? resolve(JSON.parse(out.split("\n")[1]!) as string[])
            : reject(new Error(`claim worker ${who} exited ${code}: ${err}`)),
        ),
      );
      return { ready, done };
    });
    await Promise.all(children.map((c) => c.ready));
    writeFileSync(goFile, "go");
    const [wonByA, wonByB] = await Promise.all(children.map((c) => c.done));
    // Every prompt has exactly one winner, and the table agrees with the processes.
    expect([...wonByA!, ...wonByB!].sort()).toEqual([...ids].sort());
    expect(wonByA!.filter((id) => wonByB!.includes(id))).toEqual([]);
    for (const id of ids)
      expect(repo.get(id)).toMatchObject({ state: "confirmed", answeredBy: wonByA!.includes(id) ? "A" : "B" });
  });
});
