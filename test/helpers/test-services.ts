// Real core services on a temporary data folder (real SQLite file, real discovery) for tests.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig, type Config } from "../../src/config.ts";
import { createServices, type ServiceOptions, type Services } from "../../src/services.ts";

export function tempDir(prefix = "rl-test-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** A Config as loadConfig builds it from `env`, with the data folder in a fresh temp dir and quiet logs. */
export function testConfig(env: Record<string, string> = {}): Config {
  const cwd = tempDir();
  return loadConfig({ RL_LOG_LEVEL: "silent", ...env }, cwd);
}

export function testServices(env: Record<string, string> = {}, options: ServiceOptions = {}): Services {
  return createServices(testConfig(env), options);
}
