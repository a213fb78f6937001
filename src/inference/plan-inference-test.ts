// Turns /rl test arguments and the settings into a checked plan: models, sizes, endpoint, and whether the key goes along.
import type { Config } from "../config.ts";
import { RlError } from "../errors.ts";

export interface InferenceTestRequest {
  steps?: number;
  groupSize?: number;
  models?: readonly string[];
  baseUrl?: string;
}

export interface InferenceTestPlan {
  models: string[];
  steps: number;
  groupSize: number;
  baseUrl: string;
  /** Given to the children as OPENAI_API_KEY; undefined for a local endpoint that is not the configured one. */
  apiKey?: string;
  timeoutMs: number;
  concurrency: number;
  correctThreshold: number;
}

/** Model ids go on a child's command line: no leading dash (it would read as a flag), no spaces or shell-looking text. */
export const MODEL_ID = /^[A-Za-z0-9][\w.:@+/-]*$/;
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function isLocalEndpoint(url: URL): boolean {
  return LOCAL_HOSTS.has(url.hostname.toLowerCase());
}

function parseEndpoint(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch (err) {
    throw new RlError("INVALID_VALUE", `${what} "${raw}" is not a URL. Give one like http://127.0.0.1:8001/v1.`, {
      cause: err,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RlError("INVALID_VALUE", `${what} must be an http(s) URL, not ${url.protocol}.`);
  if (url.username || url.password)
    throw new RlError("INVALID_VALUE", `${what} must not carry credentials; the key comes from OPENROUTER_API_KEY.`);
  return url;
}

export function planInferenceTest(
  request: InferenceTestRequest,
  settings: Config["inferenceTest"],
  openrouterKey: string | undefined,
): InferenceTestPlan {
  const models = [...new Set((request.models ?? settings.models).map((m) => m.trim()).filter(Boolean))];
  if (models.length === 0) throw new RlError("USAGE", "Name at least one model, e.g. --models qwen/qwen3-8b.");
  const bad = models.find((m) => !MODEL_ID.test(m));
  if (bad !== undefined)
    throw new RlError("INVALID_VALUE", `"${bad}" does not look like a model id (e.g. qwen/qwen3-8b).`);

  const configured = parseEndpoint(settings.baseUrl, "RL_TEST_BASE_URL");
  const endpoint = request.baseUrl === undefined ? configured : parseEndpoint(request.baseUrl, "--base-url");
  const local = isLocalEndpoint(endpoint);
  // The key is only ever sent where the bot's operator pointed RL_TEST_BASE_URL: a --base-url typed in chat
  // could otherwise collect it. Elsewhere only a local endpoint is allowed, and it gets no key.
  const trusted = endpoint.origin === configured.origin;
  if (!trusted && !local) {
    throw new RlError(
      "INVALID_VALUE",
      `--base-url may only point at a local endpoint (127.0.0.1 or localhost) or at ${configured.origin} (RL_TEST_BASE_URL); the API key is never sent anywhere else. Ask the bot's operator to change RL_TEST_BASE_URL.`,
    );
  }
  if (trusted && !local && !openrouterKey) {
    throw new RlError(
      "MISSING_KEYS",
      `OPENROUTER_API_KEY is not set, and ${endpoint.origin} needs it. Set it in the bot's environment, or test against a local endpoint with --base-url http://127.0.0.1:PORT/v1.`,
      {
        details: { missing: ["OPENROUTER_API_KEY"] },
      },
    );
  }
  return {
    models,
    steps: request.steps ?? settings.steps,
    groupSize: request.groupSize ?? settings.groupSize,
    baseUrl: endpoint.href.replace(/\/+$/, ""),
    apiKey: trusted ? openrouterKey : undefined,
    timeoutMs: settings.timeoutMs,
    concurrency: settings.concurrency,
    correctThreshold: settings.correctThreshold,
  };
}
