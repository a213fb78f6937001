// Reads an HTTP response body as text, refusing past a size cap so one huge answer cannot fill the bot's memory.
import { RlError } from "../../src/errors.ts";

/** Chat completions are small; a few MB is far past any real answer with tool calls. */
export const MAX_LLM_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The body as UTF-8 text; an RlError("UPSTREAM") as soon as it passes `maxBytes` (the rest is not read). */
export async function readCappedBody(response: Response, maxBytes = MAX_LLM_RESPONSE_BYTES): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  const tooBig = (): RlError =>
    new RlError(
      "UPSTREAM",
      `The language model service sent an answer over ${Math.round(maxBytes / 1024 / 1024)} MB; it was not read. Ask for less, or check LLM_BASE_URL.`,
      {
        details: { limit_bytes: maxBytes },
      },
    );
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooBig();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooBig();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
