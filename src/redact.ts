// Removes known secret values, and the encodings they travel in, from text and structured values before they are logged, posted or stored.
const MIN_SECRET_LENGTH = 4;
const MAX_DEPTH = 40;

export const REDACTED = "[redacted]";

export type Redactor = (text: string) => string;

/**
 * A key also leaves the bot encoded: base64 in a Basic header ("api:KEY" for WandB), percent-encoded in a URL,
 * escaped inside JSON. An upstream error that echoes a request shows those forms, not the raw value.
 */
function encodings(secret: string): string[] {
  return [
    secret,
    Buffer.from(secret).toString("base64"),
    Buffer.from(`api:${secret}`).toString("base64"),
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
  ];
}

export function createRedactor(secrets: readonly string[]): Redactor {
  const values = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).flatMap(encodings))]
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    // Longest first, so a value that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
    return out;
  };
}

/**
 * A copy of `value` with every string (keys too) redacted. Walking the value rather than its JSON text keeps
 * secrets that JSON would escape findable, and cannot produce invalid JSON; cycles and depth are cut off.
 */
export function redactDeep<T>(value: T, redact: Redactor): T {
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return redact(v);
    if (v === null || typeof v !== "object" || v instanceof Date) return v;
    if (seen.has(v)) return "[circular]";
    if (depth >= MAX_DEPTH) return "[too deep]";
    seen.add(v);
    try {
      if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1));
      if (v instanceof Error) return { name: v.name, message: redact(v.message) };
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v))
        Object.defineProperty(out, redact(k), {
          value: walk(item, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value, 0) as T;
}

/**
 * Secrets the bot was never given, recognised by their shape: other services' tokens that turn up in a run's log, a
 * config value, a sample or a person's message. Masked in everything sent to the LLM's provider, whatever its source.
 * Each pattern stops at a backslash or a quote, so it can run over JSON text without breaking an escape.
 */
const TOKEN_PATTERNS: readonly RegExp[] = [
  // GitHub: personal, OAuth, user-to-server, server-to-server and refresh tokens; fine-grained personal tokens.
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g,
  // Hugging Face user access tokens.
  /\bhf_[A-Za-z0-9]{30,}\b/g,
  // Slack bot, user, app-level and configuration tokens, and incoming-webhook URLs.
  /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g,
  /\bxapp-\d+-[A-Za-z0-9-]{10,}/g,
  /\bhooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/g,
  // Discord bot tokens (the bot's id in base64, a timestamp, an HMAC) and webhook URLs.
  /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}/g,
  /\bdiscord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/\d+\/[A-Za-z0-9_-]{30,}/g,
  // OpenAI-style keys: OpenAI (sk-, sk-proj-), OpenRouter (sk-or-v1-), Anthropic (sk-ant-) and the many compatible.
  /\bsk-[A-Za-z0-9_-]{20,}/g,
  // AWS access key ids, and a secret access key where it is named.
  /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g,
  /(?<=aws_secret_access_key\s*[=:]\s*["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
  // W&B keys: the 2025 format, a server's local- keys, and the classic 40 hex digits (not a commit named as one).
  /\bwandb_v\d+_[A-Za-z0-9_]{40,}/g,
  /\blocal-[0-9a-f]{40}\b/g,
  /(?<!(?:commit|sha|sha1|revision|rev|hash|head)["']?\s*[:=]?\s*)\b[0-9a-f]{40}\b/gi,
  // Google API keys and JSON web tokens.
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  // "Authorization: Bearer …", and a value assigned to a name that says it is a secret (WANDB_API_KEY=…,
  // "api_key": "…", password: …), however the value looks. Lower-case *_token names are left: tokenizers use them
  // for ordinary strings (pad_token, eos_token).
  /(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{16,}/g,
  /(?<=\b[A-Z][A-Z0-9_]*(?:_API_KEY|_TOKEN|_SECRET|_PASSWORD|_ACCESS_KEY)["']?\s*[=:]\s*["']?)[^\s"'\\,;}]{8,}/g,
  /(?<=\b(?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret|password|passwd|access[_-]?token|auth[_-]?token|refresh[_-]?token)["']?\s*[=:]\s*["']?)[^\s"'\\,;}]{8,}/gi,
];

/** `text` with every token-shaped string replaced by [redacted]. */
export function redactTokens(text: string): string {
  let out = text;
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

/** The redactor of known secrets, then of every token-shaped string: for text that leaves for the LLM's provider. */
export function withTokenPatterns(redact: Redactor): Redactor {
  return (text) => redactTokens(redact(text));
}
