// One file's bytes to its cached outcome: decoded as UTF-8, parsed and summarised, or refused with the reason.
import type Parser from "tree-sitter";
import { describeFsError } from "../describe-fs-error.ts";
import type { FileOutcome } from "./python-file-summary.ts";
import { summarizePythonFile } from "./summarize-python-file.ts";

const decoder = new TextDecoder("utf-8", { fatal: true });

export function analysePythonFile(parser: Parser, bytes: Uint8Array): FileOutcome {
  let source: string;
  try {
    source = decoder.decode(bytes);
  } catch {
    return { kind: "refused", message: "not valid UTF-8; skipped" };
  }
  try {
    return summarizePythonFile(parser, source);
  } catch (err) {
    return { kind: "refused", message: `could not be parsed (${describeFsError(err)}); skipped` };
  }
}
