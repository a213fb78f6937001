// The MCP spec's guard against DNS rebinding for a server on this machine: a browser page's request carries an Origin
// (refused unless it is the server's own), and a rebound name shows in the Host header (refused unless it is ours).
import type { IncomingHttpHeaders } from "node:http";

export interface ServedAt {
  host: string;
  port: number;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Bound to every address (told so with --host): the Host header then cannot be checked, only matched by Origin. */
const WILDCARDS = ["0.0.0.0", "::", "[::]"];

/** The host:port forms this server answers to: the one it is bound to, and the loopback names when that is loopback. */
function ownHosts({ host, port }: ServedAt, requested: string): string[] {
  if (WILDCARDS.includes(host)) return [requested];
  const names = LOOPBACK_NAMES.includes(host) || host === "::1" ? LOOPBACK_NAMES : [host];
  return names.map((name) => `${name}:${port}`);
}

/** Why the request is refused (403), or undefined when it may go on to the token check. */
export function refusedOrigin(headers: IncomingHttpHeaders, served: ServedAt): string | undefined {
  const requested = String(headers.host ?? "").toLowerCase();
  const hosts = ownHosts(served, requested);
  if (!hosts.includes(requested)) return "host";
  const origin = headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) return "origin";
  return undefined;
}
