// Cutting text into pieces that fit a platform's limits: at line breaks (or, for prose, spaces) first, never inside a character or an &entity;.

/** A cut index at or before `at` that splits neither an &entity; nor a surrogate pair. */
export function safeCut(text: string, at: number): number {
  let cut = Math.min(at, text.length);
  const amp = text.lastIndexOf("&", cut - 1);
  if (amp >= 0 && amp > cut - 6 && text.indexOf(";", amp) >= cut) cut = amp;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut > 0 ? cut : Math.min(at, text.length);
}

/** Split into pieces of at most `max` characters, preferring line breaks, then (for prose) spaces, as cut points. */
export function splitText(text: string, max: number, { wordBreaks = true }: { wordBreaks?: boolean } = {}): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = window.lastIndexOf("\n");
    if (cut < max / 2 && wordBreaks) cut = window.lastIndexOf(" ");
    // A cut at a separator drops it; a hard cut keeps every character (indentation in code matters).
    const atSeparator = cut >= max / 2;
    if (!atSeparator) cut = safeCut(rest, max);
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(atSeparator ? cut + 1 : cut);
  }
  if (rest.length > 0 || pieces.length === 0) pieces.push(rest);
  return pieces;
}
