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
