// A start counts a process ready on evidence of work, not only on time alive: with the settle period set longer than
// the start may take, the demo environment is ready once its first group reached the trajectory API and a recipe once
// it wrote its config.json; a stale config.json from an earlier attempt is no evidence.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadLockedFields } from "../../src/locked-fields.ts";
import { readApiStatus } from "../../src/stacks/api-status.ts";
import { stackAddresses } from "../../src/stacks/atropos-tinker/run-config.ts";
import { runFolderOf } from "../../src/stacks/log-path.ts";
import { selectRecipe, startCookbook } from "../helpers/cookbook.ts";
import { CONSOLE, closeDemoStacks, startDemo, type DemoStack } from "../helpers/demo-stack.ts";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

/** Longer than RL_READY_TIMEOUT_SECONDS (READY_TIMEOUT_SECONDS in the helpers): a start that waited it out would fail. */
const NEVER_SETTLES = 10 * 60_000;

describe("readiness on evidence of work", () => {
  it("the demo environment is ready once its first group reached the trajectory API", async () => {
    const stack = await startDemo({ totalSteps: 400, stepSeconds: 0.1, settleMs: NEVER_SETTLES });
    stacks.push(stack);
    const { services } = stack;
    await services.env.selectEnvironment(CONSOLE, "arithmetic");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status, run.error ?? "").toBe("running");
    const api = await readApiStatus(`${stackAddresses(loadLockedFields(stack.lockedFile)).apiUrl}/status`);
    expect((api?.queue_size ?? 0) + (api?.current_step ?? 0)).toBeGreaterThan(0);
  });

  it("a recipe is ready once it wrote its config.json", async () => {
    const stack = await startCookbook({ settleMs: NEVER_SETTLES });
    stacks.push(stack);
    const { services } = stack;
    await selectRecipe(services, CONSOLE, { steps: 400, stepSeconds: 0.1 });
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status, run.error ?? "").toBe("running");
    const written = path.join(runFolderOf(services.config.dataDir, run.id), "config.json");
    expect(existsSync(written)).toBe(true);
    expect(JSON.parse(readFileSync(written, "utf8"))).toMatchObject({
      log_path: runFolderOf(services.config.dataDir, run.id),
    });
  });
});
