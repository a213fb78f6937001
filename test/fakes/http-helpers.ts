// Small HTTP pieces shared by the local fakes: answer JSON or text, read a bounded body, parse JSON leniently.
import type { IncomingMessage, ServerResponse } from "node:http";

export const MAX_FAKE_BODY = 5 * 1024 * 1024;

export function send(
  res: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.writableEnded || res.destroyed) return;
  const text = typeof payload === "string" ? payload : JSON.stringify(payload);
  res.writeHead(status, {
    "Content-Type": typeof payload === "string" ? "text/plain" : "application/json",
    ...headers,
  });
  res.end(text);
}

export async function readBytes(req: IncomingMessage, maxBytes = MAX_FAKE_BODY): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new Error("request body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function readBody(req: IncomingMessage, maxBytes = MAX_FAKE_BODY): Promise<string> {
  return (await readBytes(req, maxBytes)).toString("utf8");
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
