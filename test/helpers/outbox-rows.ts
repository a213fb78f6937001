// Reading an outbox row as the delivery tests check it, and delivery passes hours apart, as the bot's timer would run them.
import type { Services } from "../../src/services.ts";
import { delay } from "../../src/training/wait-until.ts";

export interface OutboxRow {
  status: string;
  attempts: number;
  next_attempt_at: number;
  undeliverable: string | null;
  message_id: string | null;
}

export function outboxRow(services: Services, key: string): OutboxRow {
  return services.db
    .prepare("SELECT status, attempts, next_attempt_at, undeliverable, message_id FROM outbox WHERE dedupe_key = ?")
    .get(key) as OutboxRow;
}

/** A pass now, then `passes` more, each after moving the services' clock on by an hour (`advance`). */
export async function drainOverHours(services: Services, advance: (ms: number) => void, passes = 3): Promise<void> {
  await services.outboxSender.drain();
  for (let i = 0; i < passes; i++) {
    advance(60 * 60_000);
    await services.outboxSender.drain();
  }
}

/** Delivery passes, as the bot's timer runs them, until the row is sent (fails if it never is). */
export async function drainUntilSent(services: Services, key: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await services.outboxSender.drain();
    if (outboxRow(services, key).status === "sent") return;
    await delay(50);
  }
  throw new Error(`${key} was never sent: ${JSON.stringify(outboxRow(services, key))}`);
}
