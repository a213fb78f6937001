// Reads "field=value field2=value2" (words, quotes honoured) into the changes a rerun or sweep asks for.
import { RlError } from "../src/errors.ts";
import { quoteInput } from "../src/values/quote-input.ts";
import { tokenize } from "./parse-command-text.ts";

export interface Assignment {
  field: string;
  value: string;
}

/** Each word must be field=value; a field named twice is refused, since only one of the two could count. */
export function parseAssignments(text: string | undefined, usage: string): Assignment[] {
  const out: Assignment[] = [];
  for (const token of tokenize(text ?? "")) {
    const at = token.value.indexOf("=");
    if (at <= 0)
      throw new RlError(
        "USAGE",
        `${quoteInput(token.value)} is not field=value. Write each change as field=value, e.g. temperature=0.5.\nUsage: ${usage}`,
      );
    const field = token.value.slice(0, at).trim();
    if (out.some((a) => a.field === field))
      throw new RlError("USAGE", `${quoteInput(field)} is given twice; give each field once.\nUsage: ${usage}`);
    out.push({ field, value: token.value.slice(at + 1) });
  }
  return out;
}
