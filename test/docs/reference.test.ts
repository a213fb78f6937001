// The commands and settings reference are generated from the registry and the settings' schema (npm run docs): a
// command or setting added, renamed or described anew without running it fails here.
import { describe, expect, it } from "vitest";
import { SETTING_NAMES } from "../../src/config.ts";
import { generatedPart } from "../../src/cli/reference/markdown.ts";
import { referencePages } from "../../src/cli/reference/write-reference.ts";
import { COMMANDS } from "../../commands/index.ts";
import { readDoc } from "./doc-files.ts";

describe("the generated reference", () => {
  for (const { file, generated } of referencePages()) {
    it(`${file} holds what npm run docs writes`, () => {
      expect(generatedPart(readDoc(file)), `${file} is out of date: run npm run docs`).toBe(generated);
    });
  }

  it("covers every command and every setting", () => {
    const commands = readDoc("docs/commands.md");
    expect(COMMANDS.filter((c) => !commands.includes(`### /rl ${c.name}\n`)).map((c) => c.name)).toEqual([]);
    const settings = readDoc("docs/settings.md");
    expect(SETTING_NAMES.filter((name) => !settings.includes(`| \`${name}\` |`))).toEqual([]);
  });
});
