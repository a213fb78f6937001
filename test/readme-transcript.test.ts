// The console transcripts in README ("The first answer") and docs/command-line.md ("A console session") are what the
// real console prints on the demo stack: their deterministic exchanges (up to the first /rl start, whose run ids and
// rewards differ each time) are replayed and compared line by line.
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/run-cli.ts";
import { tempDir } from "./helpers/test-services.ts";
import { readDoc, sectionOf } from "./docs/doc-files.ts";

/** The `rl> ` commands of the first text block under `heading` in `file`, each with the lines printed after it. */
function transcript(file: string, heading: string): Array<{ command: string; lines: string[] }> {
  const block = /```text\n([\s\S]*?)```/.exec(sectionOf(readDoc(file), heading))![1]!;
  const exchanges: Array<{ command: string; lines: string[] }> = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("rl> ")) exchanges.push({ command: line.slice(4), lines: [] });
    else if (line && exchanges.length) exchanges.at(-1)!.lines.push(line);
  }
  return exchanges;
}

describe("the console transcripts", () => {
  for (const [file, heading] of [
    ["README.md", "## The first answer"],
    ["docs/command-line.md", "## A console session"],
  ] as const) {
    it(`${file}: prints, for each command before the first start, exactly what it shows`, async () => {
      const all = transcript(file, heading);
      const replayed = all.slice(
        0,
        all.findIndex((e) => e.command.startsWith("/rl start")),
      );
      expect(replayed.map((e) => e.command)).toContain("/rl select arithmetic");
      const out = await runCli([], { cwd: tempDir(), input: replayed.map((e) => `${e.command}\n`).join("") });
      expect(out.code).toBe(0);
      expect(out.stdout.trimEnd().split("\n")).toEqual(replayed.flatMap((e) => e.lines));
    });
  }
});
