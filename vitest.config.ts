// Test runner settings: real processes and sockets, so generous timeouts and files run in separate forks; dist/ is
// built first, since the command-line tests run the built rl-chatops.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/build-dist.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
