// README's console transcript is what the real console prints on the demo stack: its deterministic exchanges (up to
// the first /rl start, whose run ids and rewards differ each time) are replayed and compared line by line.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/config.ts";
import { runCli } from "./helpers/run-cli.ts";
import { tempDir } from "./helpers/test-services.ts";

const readme = readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");

/** The `rl> ` commands of README's "A console session" block, each with the lines printed after it. */
function transcript(): Array<{ command: string; lines: string[] }> {
  const section = readme.slice(readme.indexOf("## A console session"));
  const block = /```text\n([\s\S]*?)```/.exec(section)![1]!;
  const exchanges: Array<{ command: string; lines: string[] }> = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("rl> ")) exchanges.push({ command: line.slice(4), lines: [] });
    else if (line && exchanges.length) exchanges.at(-1)!.lines.push(line);
  }
  return exchanges;
}

describe("README's console session", () => {
  it("prints, for each command before the first start, exactly what README shows", async () => {
    const all = transcript();
    const replayed = all.slice(
      0,
      all.findIndex((e) => e.command.startsWith("/rl start")),
    );
    expect(replayed.map((e) => e.command)).toContain("/rl select arithmetic");
    const out = await runCli([], { cwd: tempDir(), input: replayed.map((e) => `${e.command}\n`).join("") });
    expect(out.code).toBe(0);
    expect(out.stdout.trimEnd().split("\n")).toEqual(replayed.flatMap((e) => e.lines));
  });
});
