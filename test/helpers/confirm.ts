// Answering confirmation prompts in tests the way a click does: through the prompt's record, by its id.
import { expect } from "vitest";
import { dispatch, type CommandInput, type DispatchOptions, type DispatchResult } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { confirmButtons, type Reply, type ReplyButton } from "../../src/reply.ts";

/** The confirmation id a prompt's Confirm button carries; throws when the reply is not a prompt. */
export function confirmationOf(reply: Reply): string {
  const id = confirmButtons(reply)[0]?.confirmation;
  if (!id) throw new Error(`not a confirmation prompt: ${JSON.stringify(reply).slice(0, 300)}`);
  return id;
}

/** The confirmation a Confirm or Cancel button answers; undefined for any other button (or none). */
export function answeredBy(button: ReplyButton | undefined): string | undefined {
  return button?.kind === "confirm" || button?.kind === "cancel" ? button.confirmation : undefined;
}

/** Confirm (or cancel) a prompt as the person in `ctx`, as their click would. */
export function answer(
  prompt: Reply,
  ctx: CommandContext,
  verb: "confirm" | "cancel" = "confirm",
  options: DispatchOptions = {},
): Promise<DispatchResult> {
  return dispatch(
    { confirmation: confirmationOf(prompt), answer: verb },
    { ...ctx, via: ctx.via === "slash" ? "button" : ctx.via },
    options,
  );
}

/** Dispatch, and when the answer is a prompt, confirm it as the same person: the typed command and its Confirm click. */
export async function dispatchConfirmed(
  input: CommandInput,
  ctx: CommandContext,
  options: DispatchOptions = {},
): Promise<DispatchResult> {
  const first = await dispatch(input, ctx, options);
  if (!first.needsConfirmation) return first;
  return answer(first.reply, ctx, "confirm", options);
}

/** A command that must ask first, confirmed as the person would: the prompt and the confirmed reply. */
export async function confirmed(ctx: CommandContext, text: string): Promise<{ prompt: Reply; reply: Reply }> {
  const prompt = await dispatch({ text }, ctx);
  expect(prompt.needsConfirmation, prompt.reply.text).toBe(true);
  const done = await answer(prompt.reply, ctx);
  expect(done.ok, done.reply.text).toBe(true);
  return { prompt: prompt.reply, reply: done.reply };
}
