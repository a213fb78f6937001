// Slack's HTTP requests enter Bolt one per turn of the event loop: a burst never runs in one turn, and order is kept.
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { oneRequestPerTurn } from "../../adapters/slack/one-request-per-turn.ts";

describe("oneRequestPerTurn", () => {
  it("hands a burst of requests on in arrival order, each in a turn of its own, none at once", async () => {
    let turn = 0;
    const seen: Array<{ id: number; turn: number }> = [];
    const listener = oneRequestPerTurn((req) => {
      seen.push({ id: (req as unknown as { id: number }).id, turn });
    });
    // A turn counter: one increment per check phase of the loop.
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    for (let id = 1; id <= 5; id++) listener({ id } as unknown as IncomingMessage, {} as ServerResponse);
    expect(seen).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    counting = false;
    expect(seen.map((s) => s.id)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(seen.map((s) => s.turn)).size).toBe(5);
  });
});
