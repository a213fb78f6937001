// Bearer tokens for rl-chatops mcp --http: made at random, given to the person once, stored only as SHA-256 hashes
// with the person they stand for (one "NAME sha256:HEX" a line), and looked up by the hash of what a request sends.
import { createHash, randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { RlError } from "../../src/errors.ts";

/** A person's id on the console channels, as RL_OPERATORS names them (console:NAME). */
const PERSON = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const LINE = /^(\S+)\s+(sha256:[0-9a-f]{64})$/;

export function hashToken(token: string): string {
  return `sha256:${createHash("sha256").update(token, "utf8").digest("hex")}`;
}

function howToMake(file: string): string {
  return `make one with rl-chatops mcp --new-token NAME (its hash goes to ${file})`;
}

/** The hashes in `file` and whom each stands for; an error names the file, the line and what to do. */
export function readTokens(file: string): Map<string, string> {
  if (!existsSync(file)) throw new RlError("NOT_FOUND", `There is no bearer token file ${file}: ${howToMake(file)}.`);
  const tokens = new Map<string, string>();
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) return;
      const match = LINE.exec(line);
      if (!match || !PERSON.test(match[1]!))
        throw new RlError(
          "INVALID_VALUE",
          `${file} line ${index + 1} is not "NAME sha256:HEX" (tokens are stored hashed, never in clear): ${howToMake(file)}, and remove that line.`,
        );
      tokens.set(match[2]!, match[1]!);
    });
  return tokens;
}

/** The person a request's Authorization header stands for, or undefined (no header, not Bearer, unknown token). */
export function personOf(authorization: string | undefined, tokens: ReadonlyMap<string, string>): string | undefined {
  const match = /^Bearer\s+(\S{16,512})\s*$/i.exec(authorization ?? "");
  return match ? tokens.get(hashToken(match[1]!)) : undefined;
}

/** A new token for `person`: its hash appended to `file` (made 0600), the token itself returned to show once. */
export function addToken(file: string, person: string): string {
  if (!PERSON.test(person))
    throw new RlError(
      "INVALID_VALUE",
      `--new-token takes a person's name of letters, digits and . _ @ - (at most 64), as RL_OPERATORS names them (console:NAME); got "${person.slice(0, 80)}".`,
    );
  const token = `rlmcp_${randomBytes(32).toString("base64url")}`;
  appendFileSync(file, `${person} ${hashToken(token)}\n`, { mode: 0o600 });
  return token;
}
