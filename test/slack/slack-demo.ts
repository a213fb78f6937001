// The Slack bot on the demo stack for run tests: Alice operates, everyone else reads; live runs are stopped at the end.
import { afterEach } from "vitest";
import { DEMO_STACK_ROOT } from "../../src/config.ts";
import { demoLockedFields, stopLiveRuns } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";
import { ALICE } from "./slack-payloads.ts";
import { startSlackHarness, type HarnessOptions, type SlackHarness } from "./slack-harness.ts";

/** The bot as main.ts builds it (createBot) with Slack, on the demo stack with free ports. */
export async function startDemoSlack(
  steps: { totalSteps: number; stepSeconds: number } = { totalSteps: 400, stepSeconds: 0.1 },
  options: Omit<HarnessOptions, "env"> = {},
): Promise<SlackHarness> {
  const lockedFile = await demoLockedFields(tempDir("rl-slack-demo-"), steps);
  return startSlackHarness({
    ...options,
    env: {
      RL_TRAINING_ROOT: DEMO_STACK_ROOT,
      RL_LOCKED_FIELDS: lockedFile,
      RL_STOP_GRACE_SECONDS: "3",
      RL_READY_TIMEOUT_SECONDS: "30",
      RL_DEFAULT_ROLE: "read",
      RL_OPERATORS: `slack:${ALICE.id}`,
    },
  });
}

/** Stops what is still running (so no trainer outlives its test), then the bot and the fake. */
export async function closeDemoSlack(harness: SlackHarness | undefined): Promise<void> {
  if (!harness) return;
  await stopLiveRuns(harness.services);
  await harness.close();
}

/**
 * Call at a test file's top level: after each test, the harness it kept is closed as closeDemoSlack does, its live runs
 * stopped first. Keep a harness as soon as it is started: `const harness = keep(await startSlackHarness(...))`.
 */
export function closeDemoSlackAfterEach(): (harness: SlackHarness) => SlackHarness {
  let kept: SlackHarness | undefined;
  afterEach(async () => {
    const harness = kept;
    kept = undefined;
    await closeDemoSlack(harness);
  });
  return (harness) => (kept = harness);
}
