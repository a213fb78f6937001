// Slack's HTTP requests enter Bolt one per turn of the event loop: a burst never runs in one turn, and order is kept.
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { oneRequestPerTurn } from "../../adapters/slack/one-request-per-turn.ts";

describe("oneRequestPerTurn", () => {
  it("hands a burst of requests on in arrival order, each in a turn of its own, none at once, then says it is idle", async () => {
    let turn = 0;
    const seen: Array<{ id: number; turn: number }> = [];
    const paced = oneRequestPerTurn((req) => {
      seen.push({ id: (req as unknown as { id: number }).id, turn });
    });
    // A turn counter: one increment per check phase of the loop.
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    let idleBefore = false;
    await paced.idle().then(() => (idleBefore = true));
    expect(idleBefore).toBe(true);
    for (let id = 1; id <= 5; id++) paced.listener({ id } as unknown as IncomingMessage, {} as ServerResponse);
    // Work after acks waits for it: idle only once every waiting request was handed on.
    let handedOnWhenIdle = -1;
    const idle = paced.idle().then(() => (handedOnWhenIdle = seen.length));
    expect(seen).toEqual([]);
    await idle;
    counting = false;
    expect(seen.map((s) => s.id)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(seen.map((s) => s.turn)).size).toBe(5);
    expect(handedOnWhenIdle).toBe(5);
  });
});
