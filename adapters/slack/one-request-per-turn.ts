// Slack's requests enter Bolt one per turn of the event loop: a burst (twenty commands at once) would otherwise be
// verified, parsed and acked in one turn, holding up timers, other platforms' heartbeats and the outbox meanwhile.
import type { IncomingMessage, ServerResponse } from "node:http";

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface PacedRequests {
  /** The listener to give the server: requests are handed on in arrival order, each in a turn of its own. */
  listener: RequestListener;
  /** Resolves once no request is waiting for its turn (at once when none is): work after acks waits for it. */
  idle(): Promise<void>;
}

export function oneRequestPerTurn(listener: RequestListener): PacedRequests {
  const waiting: Array<[IncomingMessage, ServerResponse]> = [];
  let draining = false;
  let idleWaiters: Array<() => void> = [];
  const next = () => {
    const request = waiting.shift();
    if (!request) {
      draining = false;
      const wake = idleWaiters;
      idleWaiters = [];
      for (const resolve of wake) resolve();
      return;
    }
    setImmediate(next);
    listener(...request);
  };
  return {
    listener(req, res) {
      waiting.push([req, res]);
      if (draining) return;
      draining = true;
      setImmediate(next);
    },
    idle: () => (draining ? new Promise<void>((resolve) => idleWaiters.push(resolve)) : Promise.resolve()),
  };
}
