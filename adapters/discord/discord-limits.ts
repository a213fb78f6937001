// Discord's message, embed, component and command limits, and clipping that never splits a character.

export const DISCORD = {
  embeds: 10,
  embedTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  rows: 5,
  buttonsPerRow: 5,
  buttonLabel: 80,
  customId: 100,
  choices: 25,
  choiceName: 100,
  choiceValue: 100,
  subcommands: 25,
  options: 25,
  optionDescription: 100,
  /** An interaction must be acknowledged within 3 s; defer a little before that. */
  ackDeadlineMs: 2_000,
  /** Work still going after this shows "thinking…" (a defer), whatever the command's definition says. */
  slowAfterMs: 1_000,
} as const;

/**
 * At most `max` UTF-16 units (Discord counts no more than that), ending in "…" when cut.
 * Never splits a surrogate pair, so an emoji is never half-sent.
 */
export function clip(text: string, max: number, ellipsis = "…"): string {
  if (text.length <= max) return text;
  if (max <= ellipsis.length) return ellipsis.slice(0, Math.max(0, max));
  let cut = max - ellipsis.length;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return text.slice(0, cut) + ellipsis;
}
