// A client's id for one request (exec, MCP): random, so two clients never share one, and made once per request.
/** 122 random bits from the runtime's crypto (Node's global; no module to load for the exec client). */
export function newRequestId(): string {
  return globalThis.crypto.randomUUID();
}
