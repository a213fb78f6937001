// A thread's parse gate closes only while none of its tree's threads is parsing, and stays closed.
import { describe, expect, it } from "vitest";
import { closeGate, gatesForNewThread, withinParseGates } from "../../src/environments/threads/parse-gate.ts";

describe("parse gates", () => {
  it("gives a thread started from the main thread one gate of its own, open", () => {
    const gates = gatesForNewThread();
    expect(gates).toHaveLength(1);
    expect(new Int32Array(gates[0]!)[0]).toBe(0);
  });

  it("refuses to close a gate while a parse counts in it, and closes it once none does", () => {
    const [gate] = gatesForNewThread();
    const count = new Int32Array(gate!);
    Atomics.add(count, 0, 1);
    expect(closeGate(gate!)).toBe(false);
    Atomics.sub(count, 0, 1);
    expect(closeGate(gate!)).toBe(true);
    expect(closeGate(gate!)).toBe(false);
  });

  it("leaves the main thread's parses as they are", () => {
    expect(withinParseGates(() => "parsed")).toBe("parsed");
  });
});
