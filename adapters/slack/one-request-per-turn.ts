// Slack's requests enter Bolt one per turn of the event loop: a burst (twenty commands at once) would otherwise be
// verified, parsed and acked in one turn, holding up timers, other platforms' heartbeats and the outbox meanwhile.
import type { IncomingMessage, ServerResponse } from "node:http";

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The listener, called for each request in arrival order, each in a turn of its own (a setImmediate apart). */
export function oneRequestPerTurn(listener: RequestListener): RequestListener {
  const waiting: Array<[IncomingMessage, ServerResponse]> = [];
  let draining = false;
  const next = () => {
    const request = waiting.shift();
    if (!request) {
      draining = false;
      return;
    }
    setImmediate(next);
    listener(...request);
  };
  return (req, res) => {
    waiting.push([req, res]);
    if (draining) return;
    draining = true;
    setImmediate(next);
  };
}
