// Quotes what a person (or model) typed for an error message: cut short, with invisible and control characters made visible.
const DEFAULT_MAX = 80;

/** `"text"` with controls, bidi overrides and zero-width characters written as \uXXXX, and an ellipsis past `max` characters. */
export function quoteInput(text: string, max = DEFAULT_MAX): string {
  const chars = Array.from(text);
  const cut = chars.length > max ? chars.slice(0, max).join("") : text;
  const visible = cut.replace(
    /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu,
    (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`,
  );
  return `"${visible}${chars.length > max ? "…" : ""}"`;
}
