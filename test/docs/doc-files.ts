// The project's Markdown pages a person reads: README, the guides and reference in docs/, and the bench's README.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../../src/config.ts";

/** Paths relative to the package root. */
export function docFiles(): string[] {
  const docs = readdirSync(path.join(PACKAGE_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return ["README.md", "bench/README.md", ...docs.sort()];
}

export function readDoc(file: string): string {
  return readFileSync(path.join(PACKAGE_ROOT, file), "utf8");
}

/** The page's text outside fenced code blocks (a link or heading inside a code block is an example, not one). */
export function proseOf(page: string): string {
  return page.replace(/^```[\s\S]*?^```/gm, "");
}

/** The section of `page` under the heading `heading` (its whole line), up to the next heading of its level or above. */
export function sectionOf(page: string, heading: string): string {
  const lines = page.split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  let fenced = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end]!;
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && new RegExp(`^#{1,${level}} `).test(line)) break;
  }
  return lines.slice(start + 1, end).join("\n");
}
