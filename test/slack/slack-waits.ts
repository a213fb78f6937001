// Waiting on the fake Slack in run tests: a command typed as Alice, and the posts, edits and answers the bot makes.
import { expect } from "vitest";
import { WAIT_CEILING_MS } from "../helpers/ceiling.ts";
import type { RecordedCall } from "../fakes/slack-api.ts";
import { textOf, type SlackHarness } from "./slack-harness.ts";
import { slashCommand } from "./slack-payloads.ts";

/** Bounds a wait on the fake (a diagnosis when the bot never does it, not a timing check): fails listing the last calls. */
export async function seen<T>(harness: SlackHarness, waiting: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const recent = harness.fake.calls.items
        .slice(-12)
        .map((c) => `${c.method} ${c.ok ? "ok" : c.error} ${String(c.body.text ?? "")}`);
      reject(new Error(`the fake never saw ${what}; the last calls were:\n${recent.join("\n")}`));
    }, WAIT_CEILING_MS);
  });
  try {
    return await Promise.race([waiting, giveUp]);
  } finally {
    clearTimeout(timer);
  }
}

export const posted = (harness: SlackHarness, match: (call: RecordedCall) => boolean, what: string) =>
  seen(
    harness,
    harness.fake.waitForCall("chat.postMessage", (c) => c.ok && match(c)),
    what,
  );
export const text = (call: RecordedCall) => String(call.body.text);
/** A command's public answer: posted at once, or (after about a second of work) edited into its "Working on…" message. */
export const answered = (harness: SlackHarness, match: (call: RecordedCall) => boolean, what: string) =>
  seen(
    harness,
    harness.fake.calls.waitFor(
      (c) => (c.method === "chat.postMessage" || c.method === "chat.update") && c.ok && match(c),
    ),
    what,
  );

/** Types /rl <words> as Alice; returns the response_url the command carried. */
export async function type(harness: SlackHarness, words: string): Promise<string> {
  const responseUrl = harness.fake.responseUrl();
  const res = await harness.slash(slashCommand({ text: words, responseUrl }));
  expect(res.status).toBe(200);
  return responseUrl;
}

export const answeredAt = (url: string) => (r: { id: string }) => url.endsWith(`/${r.id}`);

/** Types /rl <words> as `who`; the command's answer (ephemeral or public) with its text and blocks' text together. */
export async function typeAs(
  harness: SlackHarness,
  who: { id: string; name: string },
  words: string,
  ephemeral = false,
) {
  const responseUrl = harness.fake.responseUrl();
  const before = harness.fake.calls.items.length;
  const res = await harness.slash(slashCommand({ text: words, responseUrl, user: who }));
  expect(res.status).toBe(200);
  // A prompt or a refusal is ephemeral (the response_url); a public answer is posted in the channel.
  const answer = await seen(
    harness,
    Promise.race([
      harness.fake.waitForResponse(answeredAt(responseUrl)),
      ...(ephemeral
        ? []
        : [
            harness.fake.calls.waitFor(
              (c) => c.method === "chat.postMessage" && c.ok && harness.fake.calls.items.indexOf(c) >= before,
            ),
          ]),
    ]),
    `the answer to ${words}`,
  );
  return { body: answer.body, all: `${String(answer.body.text)}\n${textOf(answer.body.blocks)}` };
}
