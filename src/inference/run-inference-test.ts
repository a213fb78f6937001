// /rl test's core: runs the environment's process mode once per model (a few at a time), reads and scores, stores the result.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ChannelKey } from "../../db/channel-key.ts";
import { KEEP_TEST_FOLDERS, pruneTestFolders } from "./prune-test-folders.ts";
import type { EnvironmentInfo } from "../environments/types.ts";
import { forEachLimited } from "../environments/for-each-limited.ts";
import { progressText } from "./describe-result.ts";
import type { InferenceTestPlan } from "./plan-inference-test.ts";
import { summarizeTest } from "./summarize.ts";
import { testModel, type ModelRun } from "./test-model.ts";
import type { InferenceTestDeps, InferenceTestResult, ModelResult } from "./types.ts";

export interface InferenceTestInput {
  channel: ChannelKey;
  userId: string;
  environment: Pick<EnvironmentInfo, "name" | "filePath">;
  plan: InferenceTestPlan;
  progress?: (text: string) => Promise<void>;
}

export async function runInferenceTest(
  deps: InferenceTestDeps,
  input: InferenceTestInput,
): Promise<InferenceTestResult> {
  const now = deps.now ?? Date.now;
  const { plan, environment } = input;
  const id = deps.newId?.() ?? randomBytes(6).toString("hex");
  const root = path.join(deps.config.dataDir, "inference-tests");
  const dir = path.join(root, id);
  mkdirSync(root, { recursive: true });
  pruneTestFolders(root, KEEP_TEST_FOLDERS - 1);
  try {
    mkdirSync(dir);
  } catch (err) {
    // A random id should never collide; if it does, test-model's output-file checks still refuse older files.
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    deps.log.warn("inference test folder already exists", { id, dir });
  }
  const startedAt = now();
  deps.tests.insert({ id, channel: input.channel, environment: environment.name, createdBy: input.userId });

  let chain = Promise.resolve();
  const say = (text: string) => {
    const progress = input.progress;
    if (!progress) return;
    // Edits go out in order, and a slow or failing chat edit never holds up or breaks the test.
    chain = chain
      .then(() => progress(text))
      .catch((err: unknown) => deps.log.warn("inference test progress failed", { id, err }));
  };

  const run: ModelRun = { deps, plan, environment, dir, id, now };
  try {
    say(
      `Inference test of ${environment.name}: ${plan.models.length} models, ${plan.steps} steps × ${plan.groupSize} completions each…`,
    );
    const results: Array<ModelResult | undefined> = new Array(plan.models.length);
    const done: ModelResult[] = [];
    let failure: { err: unknown } | undefined;
    await forEachLimited(plan.models, plan.concurrency, async (model, index) => {
      // After a failure of the bot's own (not a child's), start no more children, but let running ones end first.
      if (failure) return;
      try {
        const r = await testModel(run, model, index);
        results[index] = r;
        done.push(r);
        say(progressText(environment.name, done, plan.models.length));
      } catch (err) {
        failure ??= { err };
      }
    });
    if (failure) throw failure.err;
    const models = results.filter((r): r is ModelResult => r !== undefined);
    const result: InferenceTestResult = {
      test_id: id,
      environment: environment.name,
      environment_file: environment.filePath,
      endpoint: plan.baseUrl,
      api_key_sent: plan.apiKey !== undefined,
      test_config: {
        steps: plan.steps,
        group_size: plan.groupSize,
        rollouts_per_model: plan.steps * plan.groupSize,
        total_rollouts: plan.steps * plan.groupSize * plan.models.length,
        correct_threshold: plan.correctThreshold,
        timeout_seconds: Math.round(plan.timeoutMs / 1000),
        concurrency: plan.concurrency,
      },
      models,
      summary: summarizeTest(models),
      output_directory: dir,
      started_at: new Date(startedAt).toISOString(),
      finished_at: new Date(now()).toISOString(),
    };
    deps.tests.finish(id, "completed", result);
    await chain;
    return result;
  } catch (err) {
    const message = deps.redact(err instanceof Error ? err.message : String(err));
    deps.tests.finish(id, "failed", { error: message });
    await chain;
    throw err;
  }
}
