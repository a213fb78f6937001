// Test runner settings: real processes and sockets, so generous timeouts and files run in separate forks; dist/ is
// built first, since the command-line tests run the built rl-chatops.
import { userInfo } from "node:os";
import { defineConfig } from "vitest/config";
import { SUITE_CEILING_MS } from "./test/helpers/ceiling.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/build-dist.ts"],
    // Every child process a test starts is ended with the test (test/helpers/children.ts); this ends those started
    // outside a test once the file is done.
    setupFiles: ["test/helpers/setup-children.ts"],
    pool: "forks",
    // Two files at a time, not vitest's default of one per CPU but one: most tests wait on real processes (the demo
    // stack's Python, Slurm, a bot being restarted), so two run side by side on the 2-CPU CI machine in 5.5 minutes
    // instead of 9.
    maxWorkers: 2,
    // One ceiling for every test and hook (test/helpers/ceiling.ts): tests wait for events, never for a fixed time.
    testTimeout: SUITE_CEILING_MS,
    // The background supervisor an exec starts on a test's data folder exits as soon as it is idle, leaving nothing
    // behind; the tests of its idle time set their own. Tests play several people from one machine user (exec --user,
    // mcp --user): that user may act for others, as an admin's scripts may; the local identity tests set their own.
    env: { RL_IDLE_EXIT_MINUTES: "0", RL_LOCAL_ACT_FOR_OTHERS: userInfo().username },
    hookTimeout: SUITE_CEILING_MS,
  },
});
