// Every relative link in README, docs/ and bench/README.md reaches a file of the project, and its #anchor a heading
// of that page (GitHub's way of making anchors from headings).
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config.ts";
import { docFiles, proseOf, readDoc } from "./doc-files.ts";

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function anchorsOf(page: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of proseOf(page).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

describe("links in README and docs/", () => {
  it("names a real heading when it makes the anchor of one", () => {
    expect([
      ...anchorsOf("# The data folder, the database and signals\n## /rl help\n## Signals\n## Signals\n"),
    ]).toEqual(["the-data-folder-the-database-and-signals", "rl-help", "signals", "signals-1"]);
  });

  it("every relative link resolves to a file, and every #anchor to a heading of its page", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of docFiles()) {
      const page = readDoc(file);
      for (const [, target] of proseOf(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
        checked++;
        const [where, anchor] = target!.split("#") as [string, string | undefined];
        const resolved = where ? path.join(path.dirname(file), where) : file;
        if (!existsSync(path.join(PACKAGE_ROOT, resolved))) {
          broken.push(`${file}: ${target} (no file ${resolved})`);
          continue;
        }
        if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(readDoc(resolved)).has(anchor))
          broken.push(`${file}: ${target} (no heading makes #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});
