// Shared set-up for the inference-test suites: real services on a temp data folder, the fake endpoint, arithmetic selected.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createInferenceTestsRepo } from "../../db/inference-tests.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import {
  planInferenceTest,
  type InferenceTestPlan,
  type InferenceTestRequest,
} from "../../src/inference/plan-inference-test.ts";
import type { InferenceTestInput } from "../../src/inference/run-inference-test.ts";
import type { InferenceTestDeps } from "../../src/inference/types.ts";
import type { Services } from "../../src/services.ts";
import { startFakeCompletions, type FakeCompletions } from "../fakes/openai-completions.ts";
import { testServices } from "../helpers/test-services.ts";

export const KEY = "sk-or-v1-inference-test-secret-0123456789";
export const CHANNEL: ChannelKey = { platform: "slack", workspace: "T1", channel: "C-infer" };
export const OTHER: ChannelKey = { platform: "discord", workspace: "G1", channel: "C-other" };
/** Fake environments that crash or write nothing (see the files for how). */
export const FAKE_ENVS = fileURLToPath(new URL("./envs/", import.meta.url));

export interface Harness {
  fake: FakeCompletions;
  services: Services;
  /** Children started, in order, with what /proc said about them at start. */
  spawned: Array<{ model: string; pid: number; command: string[]; cmdline?: string; environ?: string }>;
  deps(extra?: Partial<InferenceTestDeps>): InferenceTestDeps;
  plan(request?: InferenceTestRequest, overrides?: Partial<InferenceTestPlan>): InferenceTestPlan;
  input(plan: InferenceTestPlan, extra?: Partial<InferenceTestInput>): Promise<InferenceTestInput>;
  close(): Promise<void>;
}

export async function inferenceHarness(env: Record<string, string> = {}, environment = "arithmetic"): Promise<Harness> {
  const fake = await startFakeCompletions();
  const services = testServices({
    RL_TEST_BASE_URL: fake.baseUrl,
    OPENROUTER_API_KEY: KEY,
    RL_DEFAULT_ROLE: "operate",
    ...env,
  });
  await services.env.selectEnvironment(CHANNEL, environment);
  const spawned: Harness["spawned"] = [];
  const proc = (pid: number, what: string) => {
    try {
      return readFileSync(`/proc/${pid}/${what}`, "utf8").split("\0").join(" ");
    } catch {
      return undefined;
    }
  };
  return {
    fake,
    services,
    spawned,
    deps: (extra = {}) => ({
      config: services.config,
      tests: createInferenceTestsRepo(services.db, services.now),
      log: services.log,
      redact: services.redact,
      // Spawn returns once the child has called exec, but the kernel may still be setting up the new argv and
      // environment (vfork released mid-exec): read /proc until they are the child's own, for a short while.
      onSpawn: (child) => {
        let cmdline = proc(child.pid, "cmdline");
        let environ = proc(child.pid, "environ");
        for (let i = 0; i < 200 && !(cmdline?.includes(" process ") && environ?.includes("PATH=")); i++) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
          cmdline = proc(child.pid, "cmdline");
          environ = proc(child.pid, "environ");
        }
        spawned.push({ ...child, cmdline, environ });
      },
      ...extra,
    }),
    plan: (request = {}, overrides = {}) => ({
      ...planInferenceTest(
        { steps: 2, groupSize: 4, ...request },
        services.config.inferenceTest,
        services.config.keys.openrouter,
      ),
      ...overrides,
    }),
    input: async (plan, extra = {}) => ({
      channel: CHANNEL,
      userId: "U1",
      environment: await services.env.selectedEnvironment(CHANNEL),
      plan,
      ...extra,
    }),
    close: async () => {
      await services.close();
      await fake.close();
    },
  };
}

export function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export const dataFolder = (services: Services, ...parts: string[]) =>
  path.join(services.config.dataDir, "inference-tests", ...parts);
