// exec --request-id on real processes: the same request sent twice at once runs once and both hear its answer; an id
// used for another command is refused; a read is answered afresh and records nothing; a malformed id is named.
import { describe, expect, it } from "vitest";
import { readDb, supervisedFoldersPerTest } from "../helpers/bot-process.ts";
import { COOKBOOK_ENV, cookbookLockedFields, RECIPE } from "../helpers/cookbook.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const folders = supervisedFoldersPerTest();

async function folder() {
  const cwd = tempDir("rl-request-id-");
  folders.push(cwd);
  const env = { ...COOKBOOK_ENV, RL_LOCKED_FIELDS: cookbookLockedFields(cwd), RL_IDLE_EXIT_MINUTES: "10" };
  const exec = async (...args: string[]) => runCli(["exec", ...args], { cwd, env });
  for (const line of [`/rl select ${RECIPE}`, "/rl set demo_n_batches 3", "/rl set demo_step_seconds 0.1"])
    expect((await exec(line)).code).toBe(0);
  const count = (sql: string) => readDb(cwd, env, (db) => (db.prepare(sql).get() as { n: number }).n);
  return { cwd, exec, count };
}

describe("exec --request-id", () => {
  it("the same start sent twice at once runs once; both hear the run; another command with that id is refused", async () => {
    const f = await folder();
    const [a, b] = await Promise.all([
      f.exec("/rl start", "--request-id", "retry-test-0001", "--json"),
      f.exec("/rl start", "--request-id", "retry-test-0001", "--json"),
    ]);
    expect([a.code, b.code], `${a.stderr}${b.stderr}`).toEqual([0, 0]);
    expect(f.count("SELECT COUNT(*) AS n FROM runs")).toBe(1);
    expect(f.count("SELECT COUNT(*) AS n FROM audit WHERE command = 'start'")).toBe(1);
    expect(a.stdout).toBe(b.stdout);
    const again = await f.exec("/rl start", "--request-id", "retry-test-0001", "--json");
    expect(again.stdout).toBe(a.stdout);

    const other = await f.exec("/rl stop all", "--request-id", "retry-test-0001");
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("The request id retry-test-0001 was already used for another command (/rl start)");
  });

  it("a read is answered afresh and records nothing; a malformed id says what one looks like", async () => {
    const f = await folder();
    expect((await f.exec("/rl runs", "--request-id", "read-test-0001")).code).toBe(0);
    expect((await f.exec("/rl runs", "--request-id", "read-test-0001")).code).toBe(0);
    expect(f.count("SELECT COUNT(*) AS n FROM requests")).toBe(3);
    const bad = await f.exec("/rl start", "--request-id", "no");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("A request id is 8 to 128 letters, digits");
  });
});
