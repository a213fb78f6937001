// The layer rule (.dependency-cruiser.cjs, run by npm run lint): the project's own tree keeps it, and a tree that
// breaks it in each way (an upward import at every layer, a core folder no tier names, an import circle) fails.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DEPCRUISE = path.join(ROOT, "node_modules/.bin/depcruise");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");

/** What `npm run layers` prints and its exit code: one "error <rule>: <from> → <to>" line per violation. */
async function cruise(cwd: string): Promise<{ exitCode: number; violations: string[] }> {
  const args = ["--config", CONFIG, "--output-type", "err", "src", "commands", "adapters", "db"];
  const outcome = await promisify(execFile)(DEPCRUISE, args, { cwd }).then(
    ({ stdout }) => ({ exitCode: 0, stdout }),
    (err: { code?: number; stdout?: string }) => ({ exitCode: err.code ?? -1, stdout: err.stdout ?? "" }),
  );
  const violations = [...outcome.stdout.matchAll(/^\s*error ([\w-]+): (\S+)/gm)].map((m) => `${m[1]}: ${m[2]}`);
  return { exitCode: outcome.exitCode, violations: violations.sort() };
}

describe("layers", () => {
  it("the project's tree has no upward import and no circle", async () => {
    const { exitCode, violations } = await cruise(ROOT);
    expect(violations).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it("fails on an upward import at each layer, a core folder outside the tiers, and a circle", async () => {
    const { exitCode, violations } = await cruise(path.join(ROOT, "test/fixtures/layers"));
    expect(exitCode).not.toBe(0);
    expect(violations).toEqual([
      "commands-import-no-adapter: commands/help.ts",
      "core-file-in-a-tier: src/orphan/stray.ts",
      "core-imports-no-front-end: src/digests/digest-line.ts",
      "core-tier-3-imports-no-higher-tier: src/training/start-run.ts",
      "db-imports-only-db: db/row.ts",
      "no-circular: commands/help.ts",
    ]);
  });
});
