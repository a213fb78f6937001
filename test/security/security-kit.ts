// Shared set-up for the security tests: real services on a temp folder with a probe environment, roles by user, captured logs.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CommandContext } from "../../commands/types.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/log.ts";
import { createRedactor } from "../../src/redact.ts";
import { createServices, type ServiceOptions, type Services } from "../../src/services.ts";
import { tempDir } from "../helpers/test-services.ts";

export const SLACK: ChannelKey = { platform: "slack", workspace: "T1", channel: "C1" };
export const DISCORD: ChannelKey = { platform: "discord", workspace: "G1", channel: "200000000000000001" };

/** One user per role under POLICY_ENV (everyone not listed reads). */
export const USERS = { reader: "UREAD", operator: "UOPS", operator2: "UOPS2", admin: "UADMIN" } as const;
export const POLICY_ENV: Record<string, string> = {
  RL_DEFAULT_ROLE: "read",
  RL_OPERATORS: `slack:${USERS.operator},slack:${USERS.operator2}`,
  RL_ADMINS: `slack:${USERS.admin}`,
};

/** A config class with one field of every kind the value parser knows, on top of BaseEnvConfig's fields. */
export function probeEnvSource(extra: { docstring?: string; labelDefault?: string } = {}): string {
  return `"""Probe: one config field of every kind."""
from typing import Any, Dict, List, Literal, Optional

from atroposlib.envs.base import BaseEnv, BaseEnvConfig
from pydantic import Field


class ProbeConfig(BaseEnvConfig):
    label: str = Field(default=${JSON.stringify(extra.labelDefault ?? "probe")}, description="A free-text label")
    note: Optional[str] = Field(default=None, description="An optional note")
    count: int = Field(default=3, ge=1, le=100, description="A bounded count")
    ratio: float = Field(default=0.5, description="A ratio")
    flag: bool = Field(default=False, description="A flag")
    mode: Literal["a", "b"] = Field(default="a", description="A mode")
    tags: List[str] = Field(default=[], description="Tags")
    extra: Dict[str, Any] = Field(default={}, description="Extra settings")
    anything: Any = Field(default=None, description="Anything")


class ProbeEnv(BaseEnv):
    """${extra.docstring ?? "Probe environment for the security tests."}"""

    name = "probe"
    env_config_cls = ProbeConfig


if __name__ == "__main__":
    ProbeEnv.cli()
`;
}

export interface Kit {
  services: Services;
  root: string;
  cwd: string;
  /** Every log line written, parsed. */
  logLines: string[];
  ctx(user: string, options?: { channel?: ChannelKey; via?: CommandContext["via"]; roles?: string[] }): CommandContext;
  close(): Promise<void>;
}

export interface KitOptions {
  env?: Record<string, string>;
  envFiles?: Record<string, string>;
  services?: ServiceOptions;
}

/** Services with a temp training root holding the probe environment, the seed's locked fields, and a debug logger whose lines are kept. */
export function startKit(options: KitOptions = {}): Kit {
  const root = tempDir("rl-sec-root-");
  const envDir = path.join(root, "environments");
  mkdirSync(envDir, { recursive: true });
  for (const [name, source] of Object.entries(options.envFiles ?? { "probe_env.py": probeEnvSource() }))
    writeFileSync(path.join(envDir, name), source);
  const cwd = tempDir("rl-sec-data-");
  const config = loadConfig(
    { RL_LOG_LEVEL: "debug", RL_TRAINING_ROOT: root, RL_ENVIRONMENTS_DIR: envDir, ...options.env },
    cwd,
  );
  const logLines: string[] = [];
  const log = createLogger("debug", createRedactor(config.secrets), (line) => void logLines.push(line));
  const services = createServices(config, { log, ...options.services });
  return {
    services,
    root,
    cwd,
    logLines,
    ctx: (user, o = {}) => ({
      channel: o.channel ?? SLACK,
      user: { id: user, name: user, ...(o.roles ? { roles: o.roles } : {}) },
      via: o.via ?? "slash",
      services,
    }),
    close: () => services.close(),
  };
}

/** A run row as /rl start would leave it, without processes (queued runs stop without any). */
export function insertRun(
  services: Services,
  id: string,
  createdBy: string,
  channel: ChannelKey = SLACK,
  status: "queued" | "running" | "completed" | "failed" = "queued",
): void {
  services.runs.insert({ id, channel, environment: "probe", config: {}, status, createdBy });
}

/** A deterministic pseudo-random source (mulberry32), so a failing fuzz case can be replayed from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
