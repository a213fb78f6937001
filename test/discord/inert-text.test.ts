// Untrusted text (an environment file's descriptions) stays inert in the bot's Discord embeds: no masked links, formatting, spoilers or mentions.
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../commands/index.ts";
import { writeBigEnvironment } from "../helpers/big-environment.ts";
import { answerOf, embedsOf, harnessPerTest } from "./harness.ts";

const start = harnessPerTest();

const HOSTILE =
  "[click](https://evil.example) **bold** ||spoiler|| `code` ~~gone~~ <@400000000000000004> @everyone see https://bare.example\n> quoted\n# heading";

/** Every string Discord would render as markdown in these embeds. */
const renderedText = (embeds: Array<Record<string, unknown>>): string =>
  embeds
    .flatMap((e) => [
      e["title"],
      e["description"],
      ...((e["fields"] as Array<{ name: string; value: string }> | undefined) ?? []).flatMap((f) => [f.name, f.value]),
    ])
    .filter((s): s is string => typeof s === "string")
    .join("\n");

describe("untrusted text in Discord embeds", () => {
  it("escapes markdown, masked and bare links, spoilers, mentions and line markup from an environment's descriptions", async () => {
    const { root, envDir } = writeBigEnvironment(HOSTILE);
    const h = await start({
      env: { RL_TRAINING_ROOT: root, RL_ENVIRONMENTS_DIR: envDir },
      adapter: { commands: COMMANDS },
    });
    await h.services.env.selectEnvironment(h.channel, "big");
    for (const [sub, values] of [
      ["config", { filter: "knob_00" }],
      ["envs", {}],
    ] as const) {
      const text = renderedText(embedsOf(await answerOf(h.fake, h.fake.slash(sub, values))));
      expect(text).toContain("click");
      // Each piece of markup is preceded by Discord's escape, so it shows as typed.
      expect(text).toContain("\\[click\\](https\\://evil.example)");
      expect(text).toContain("\\*\\*bold\\*\\*");
      expect(text).toContain("\\|\\|spoiler\\|\\|");
      expect(text).toContain("\\`code\\`");
      expect(text).toContain("\\~\\~gone\\~\\~");
      expect(text).toContain("\\<@400000000000000004>");
      expect(text).toContain("@\u200beveryone");
      expect(text).toContain("https\\://bare.example");
      expect(text).not.toMatch(/(^|[^\\])\[click/);
      expect(text).not.toMatch(/(^|[^\\])https:\/\/(evil|bare)/);
      expect(text).not.toMatch(/^>/m);
    }
  });
});
