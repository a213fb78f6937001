// The nonce a channel message carries: the same outbox message always gets the same one, within Discord's 25 characters.
import { createHash } from "node:crypto";

const NONCE_LENGTH = 25;

/** A short stable hash of the outbox's dedupe key: with enforce_nonce, Discord answers a repeat with the first message. */
export function nonceFor(key: string): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, NONCE_LENGTH);
}
