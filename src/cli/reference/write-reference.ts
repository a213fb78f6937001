// npm run docs: writes the generated parts of docs/commands.md and docs/settings.md from the command registry and
// the settings' schema; test/docs/reference.test.ts fails when either page differs from what this would write.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { COMMANDS } from "../../../commands/index.ts";
import { PACKAGE_ROOT } from "../../config.ts";
import { commandsReference } from "./commands-reference.ts";
import { withGenerated } from "./markdown.ts";
import { settingsReference } from "./settings-reference.ts";

/** Each reference page, by its path in the package, with the generated part it must hold. */
export function referencePages(root = PACKAGE_ROOT): Array<{ file: string; generated: string }> {
  const example = readFileSync(path.join(root, ".env.example"), "utf8");
  return [
    { file: "docs/commands.md", generated: commandsReference(COMMANDS) },
    { file: "docs/settings.md", generated: settingsReference(example) },
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const { file, generated } of referencePages()) {
    const full = path.join(PACKAGE_ROOT, file);
    writeFileSync(full, withGenerated(readFileSync(full, "utf8"), generated, file));
    console.log(`wrote ${file}`);
  }
}
