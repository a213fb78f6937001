// One GraphQL POST to WandB, turning every way it can fail into an RlError that never carries the API key.
import { RlError } from "../errors.ts";
import { retryAfterSeconds, retryTransient } from "../retry-transient.ts";

export interface WandbGraphqlOptions {
  apiKey: string;
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
}

export type WandbGraphql = (query: string, variables: Record<string, unknown>) => Promise<unknown>;

const BODY_EXCERPT = 200;

export function createWandbGraphql({ apiKey, baseUrl, fetch, timeoutMs }: WandbGraphqlOptions): WandbGraphql {
  const endpoint = `${baseUrl.replace(/\/+$/, "")}/graphql`;
  const authorization = `Basic ${Buffer.from(`api:${apiKey}`).toString("base64")}`;
  // Upstream text (error bodies, GraphQL messages) is quoted to the user, so scrub the key in every form we send.
  const secrets = [apiKey, authorization.slice("Basic ".length)].filter((s) => s.length > 0);
  const redact = (text: string): string => secrets.reduce((t, s) => t.split(s).join("[redacted]"), text);

  const once: WandbGraphql = async (query, variables) => {
    const operation = /^\s*query\s+(\w+)/.exec(query)?.[1] ?? "query";
    let response: Response;
    let text: string;
    try {
      // The timeout covers reading the body as well: a server that sends headers and then stalls still ends.
      response = await fetch(endpoint, {
        method: "POST",
        headers: { Authorization: authorization, "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (err) {
      throw transportError(err, operation, timeoutMs, redact);
    }

    if (response.status === 401 || response.status === 403) {
      throw new RlError("UPSTREAM", "WandB refused the API key; check WANDB_API_KEY", {
        details: { status: response.status, operation },
      });
    }

    const body = parseJson(text);
    const gqlErrors = graphqlErrorMessages(body);
    if (!response.ok) {
      const said = gqlErrors.length > 0 ? gqlErrors.join("; ") : text.slice(0, BODY_EXCERPT).trim();
      throw new RlError(
        "UPSTREAM",
        redact(`WandB answered HTTP ${response.status} to ${operation}${said ? `: ${said}` : ""}`),
        { details: { status: response.status, operation, ...retryAfter(response) } },
      );
    }
    if (gqlErrors.length > 0) {
      throw new RlError("UPSTREAM", redact(`WandB rejected ${operation}: ${gqlErrors.join("; ")}`), {
        details: { status: response.status, operation, errors: gqlErrors.map(redact) },
      });
    }
    if (typeof body !== "object" || body === null || !("data" in body)) {
      throw new RlError("UPSTREAM", `WandB sent an answer to ${operation} that is not GraphQL JSON`, {
        details: { status: response.status, operation },
      });
    }
    return body.data;
  };
  // A 429, a 5xx or a reset connection is tried again a few times; a refused key or a bad query is not.
  return (query, variables) => retryTransient(() => once(query, variables));
}

function retryAfter(response: Response): { retry_after_seconds?: number } {
  const seconds = retryAfterSeconds(response.headers.get("retry-after"), Date.now());
  return seconds === undefined ? {} : { retry_after_seconds: seconds };
}

function transportError(err: unknown, operation: string, timeoutMs: number, redact: (t: string) => string): RlError {
  const name = err instanceof Error ? err.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return new RlError("TIMEOUT", `WandB did not answer ${operation} within ${timeoutMs} ms`, {
      details: { operation, timeoutMs },
    });
  }
  // undici hides the real reason (ECONNREFUSED, ENOTFOUND) in cause; it names hosts, never headers.
  const reason = err instanceof Error ? describeCause(err) : String(err);
  return new RlError("UPSTREAM", redact(`Could not reach WandB for ${operation}: ${reason}`), {
    cause: err,
    details: { operation },
  });
}

function describeCause(err: Error): string {
  const cause: unknown = err.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === "string" ? `${err.message} (${code})` : `${err.message} (${cause.message})`;
  }
  return err.message;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function graphqlErrorMessages(body: unknown): string[] {
  if (typeof body !== "object" || body === null || !("errors" in body) || !Array.isArray(body.errors)) return [];
  return body.errors.map((e: unknown) =>
    typeof e === "object" && e !== null && "message" in e && typeof e.message === "string" ? e.message : String(e),
  );
}
