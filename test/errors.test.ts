import { describe, expect, it } from "vitest";
import { RlError, asRlError } from "../src/errors.ts";

describe("asRlError", () => {
  it("keeps an RlError as it is", () => {
    const err = new RlError("NOT_FOUND", "Run 'x' not found");
    expect(asRlError(err)).toBe(err);
  });

  it("wraps anything else as INTERNAL with the cause kept", () => {
    const cause = new TypeError("boom");
    const wrapped = asRlError(cause);
    expect(wrapped.code).toBe("INTERNAL");
    expect(wrapped.cause).toBe(cause);
    expect(wrapped.message).toContain("boom");
    expect(asRlError("text").message).toContain("text");
  });
});
