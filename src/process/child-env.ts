// The environment a training process gets: the bot's environment minus every chat secret, plus what it needs.
import path from "node:path";
import { SECRET_SETTINGS } from "../config.ts";

/** `base` without any chat secret: what a process the bot starts may see. */
export function withoutSecrets(base: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  for (const name of SECRET_SETTINGS) delete env[name];
  return env;
}

/**
 * For a Node child that opens no connection (the discovery process): without its chat secrets, and without
 * NODE_EXTRA_CA_CERTS, which makes Node read that file's certificates and its own roots before it runs any code
 * (40-50 ms of CPU for a proxy's bundle of 144 certificates on the development machine).
 */
export function offlineNodeEnv(base: NodeJS.ProcessEnv): Record<string, string> {
  const env = withoutSecrets(base);
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

export function childEnv(
  base: NodeJS.ProcessEnv,
  trainingRoot: string,
  extra: Record<string, string | undefined>,
): Record<string, string> {
  const env = withoutSecrets(base);
  // The training root on the import path, as an installed atroposlib would be on the real stack.
  env.PYTHONPATH = [trainingRoot, base.PYTHONPATH].filter(Boolean).join(path.delimiter);
  env.PYTHONUNBUFFERED = "1";
  for (const [k, v] of Object.entries(extra)) if (v) env[k] = v;
  return env;
}
