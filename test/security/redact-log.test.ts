// The redactor and the logger: keys in every encoding they travel in, inside structures and errors; the logger never throws.
import { describe, expect, it } from "vitest";
import { RlError } from "../../src/errors.ts";
import { createLogger } from "../../src/log.ts";
import { createRedactor, redactDeep } from "../../src/redact.ts";

const KEY = 'k3y-with"quote\\and/slash+plus=0123';
const redact = createRedactor([KEY, "abc", ""]);

describe("createRedactor", () => {
  it("removes a key raw, base64 (alone and as a Basic 'api:' header), percent-encoded and JSON-escaped", () => {
    const forms = [
      KEY,
      Buffer.from(KEY).toString("base64"),
      Buffer.from(`api:${KEY}`).toString("base64"),
      encodeURIComponent(KEY),
      JSON.stringify(KEY).slice(1, -1),
    ];
    for (const form of forms) expect(redact(`before ${form} after`)).toBe("before [redacted] after");
  });

  it("leaves values too short to be keys alone (they would blank out ordinary words)", () => {
    expect(redact("abc and more")).toBe("abc and more");
  });
});

describe("redactDeep", () => {
  it("redacts strings and keys at any depth, keeps other values, and survives cycles", () => {
    const cyclic: Record<string, unknown> = { [KEY]: [KEY, 1, true, null, { deep: `x${KEY}` }], when: new Date(0) };
    cyclic.self = cyclic;
    const out = redactDeep(cyclic, redact);
    expect(out).toEqual({
      "[redacted]": ["[redacted]", 1, true, null, { deep: "x[redacted]" }],
      when: new Date(0),
      self: "[circular]",
    });
    expect(redactDeep({ err: new Error(`failed with ${KEY}`) }, redact)).toEqual({
      err: { name: "Error", message: "failed with [redacted]" },
    });
  });

  it("never lets a __proto__ key change the prototype", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const out = redactDeep(parsed, redact) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("createLogger", () => {
  it("writes one redacted JSON line per event, errors with their causes and details", () => {
    const lines: string[] = [];
    const log = createLogger("debug", redact, (l) => void lines.push(l));
    const cause = new Error(`socket closed by ${KEY}`);
    log.error("failed", {
      err: new RlError("UPSTREAM", `WandB said ${KEY}`, {
        cause,
        details: { header: `Basic ${Buffer.from(`api:${KEY}`).toString("base64")}` },
      }),
      key: KEY,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith("\n")).toBe(true);
    const entry = JSON.parse(lines[0]!) as {
      err: { message: string; details: { header: string }; cause: { message: string } };
      key: string;
    };
    expect(entry.key).toBe("[redacted]");
    expect(entry.err.message).toBe("WandB said [redacted]");
    expect(entry.err.details.header).toBe("Basic [redacted]");
    expect(entry.err.cause.message).toBe("socket closed by [redacted]");
    expect(lines[0]).not.toContain("quote");
  });

  it("never throws: cyclic causes, bigints, cyclic context, a failing writer", () => {
    const lines: string[] = [];
    const log = createLogger("info", redact, (l) => void lines.push(l));
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;
    const ctx: Record<string, unknown> = { n: 10n };
    ctx.self = ctx;
    expect(() => log.warn("loop", { err: a, ctx })).not.toThrow();
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: "loop", ctx: { n: "10", self: "[circular]" } });
    const broken = createLogger("info", redact, () => {
      throw new Error("EPIPE");
    });
    expect(() => broken.error("x")).not.toThrow();
    log.debug("below the level");
    expect(lines).toHaveLength(1);
  });
});
