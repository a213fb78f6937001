// The guards of rl-chatops mcp --http, each on its own: bearer tokens kept hashed (and a clear or malformed line
// refused), the token a request sends looked up by its hash, and the Origin and Host checks against DNS rebinding.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { addToken, hashToken, personOf, readTokens } from "../../adapters/mcp/bearer-tokens.ts";
import { refusedOrigin } from "../../adapters/mcp/check-http-origin.ts";
import { tempDir } from "../helpers/test-services.ts";

describe("bearer tokens", () => {
  it("stores only the hash, 0600, and finds the person by the token's hash", () => {
    const file = path.join(tempDir(), "tokens");
    const token = addToken(file, "alice");
    expect(token).toMatch(/^rlmcp_[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, "utf8")).toBe(`alice ${hashToken(token)}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const tokens = readTokens(file);
    expect(personOf(`Bearer ${token}`, tokens)).toBe("alice");
    expect(personOf(`bearer ${token}`, tokens)).toBe("alice");
    for (const header of [undefined, "", token, `Basic ${token}`, `Bearer ${token}x`, `Bearer ${hashToken(token)}`])
      expect(personOf(header, tokens)).toBeUndefined();
  });

  it("refuses a token file with a token in clear or a malformed line, naming the file, the line and what to do", () => {
    const file = path.join(tempDir(), "tokens");
    expect(() => readTokens(file)).toThrow(/There is no bearer token file .*--new-token NAME/);
    writeFileSync(file, `# people\nalice ${hashToken("x".repeat(20))}\nbob rlmcp_in-clear-token-1234567\n`);
    expect(() => readTokens(file)).toThrow(`${file} line 3 is not "NAME sha256:HEX" (tokens are stored hashed`);
    writeFileSync(file, `al ice ${hashToken("x".repeat(20))}\n`);
    expect(() => readTokens(file)).toThrow(/line 1 is not/);
    expect(() => addToken(file, "../etc")).toThrow(/--new-token takes a person's name/);
  });
});

describe("Origin and Host", () => {
  const served = { host: "127.0.0.1", port: 8765 };
  it("takes the server's own host names, and an Origin only when it is the server's own", () => {
    expect(refusedOrigin({ host: "127.0.0.1:8765" }, served)).toBeUndefined();
    expect(refusedOrigin({ host: "localhost:8765", origin: "http://localhost:8765" }, served)).toBeUndefined();
    expect(refusedOrigin({ host: "127.0.0.1:8765", origin: "http://evil.example" }, served)).toBe("origin");
    expect(refusedOrigin({ host: "127.0.0.1:8765", origin: "http://127.0.0.1:9999" }, served)).toBe("origin");
    expect(refusedOrigin({ host: "evil.example:8765" }, served)).toBe("host");
    expect(refusedOrigin({}, served)).toBe("host");
  });

  it("bound to every address, checks the Origin against the Host the request names", () => {
    const wide = { host: "0.0.0.0", port: 8765 };
    expect(refusedOrigin({ host: "10.0.0.5:8765" }, wide)).toBeUndefined();
    expect(refusedOrigin({ host: "10.0.0.5:8765", origin: "http://10.0.0.5:8765" }, wide)).toBeUndefined();
    expect(refusedOrigin({ host: "10.0.0.5:8765", origin: "http://evil.example" }, wide)).toBe("origin");
  });
});
