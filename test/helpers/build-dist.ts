// vitest globalSetup: builds dist/ from the current sources before any test runs, so the tests that start the real
// rl-chatops command (test/helpers/run-cli.ts) never run a stale build, however vitest was started.
import { buildDist } from "../../bin/build.mjs";

export default async function setup(): Promise<void> {
  await buildDist({ quiet: true });
}
