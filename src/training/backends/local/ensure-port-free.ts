// Before a component starts, its port must be free: a stray process answering there would pass the readiness probe.
import { createServer } from "node:net";
import { RlError } from "../../../errors.ts";
import { findPortHolder } from "./port-holder.ts";

/** True when nothing listens on `port` (on any address) right now. */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    // Binding the wildcard fails when any address holds the port, 127.0.0.1 included.
    server.listen({ port, host: "0.0.0.0", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export async function ensurePortFree(port: number, component: string): Promise<void> {
  if (await canBind(port)) return;
  const holder = findPortHolder(port);
  const who = holder?.pid ? ` by pid ${holder.pid}${holder.command ? ` (${holder.command})` : ""}` : "";
  const what = holder?.pid
    ? `Stop that process (kill ${holder.pid})`
    : "Stop the process that holds it (ss -ltnp shows it)";
  throw new RlError(
    "PORT_IN_USE",
    `Port ${port}, which the ${component} needs, is already in use${who}. ${what}, or change the port in the locked fields, then start again.`,
    {
      details: { component, port, ...(holder?.pid ? { pid: holder.pid } : {}) },
    },
  );
}
