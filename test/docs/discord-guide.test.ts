// docs/discord.md asks a person for exactly what the code uses: the intents the client identifies with, the
// permissions and scopes of the invite link the bot logs, and its permissions integer.
import { GatewayIntentBits } from "discord.js";
import { describe, expect, it } from "vitest";
import { INTENTS } from "../../adapters/discord/discord-client.ts";
import { BOT_PERMISSIONS, botPermissions, inviteUrl } from "../../adapters/discord/discord-invite.ts";
import { readDoc, sectionOf } from "./doc-files.ts";

const guide = readDoc("docs/discord.md");
const setUp = sectionOf(guide, "## Setting up the application");

describe("docs/discord.md", () => {
  it("names the gateway intents the client asks for, and no other", () => {
    const names = INTENTS.map((bit) => GatewayIntentBits[bit]);
    expect(names).toEqual(["Guilds", "GuildMessages"]);
    for (const name of names) expect(setUp).toContain(`\`${name}\``);
    expect(setUp).toContain("Message Content");
    expect(names).not.toContain("MessageContent");
  });

  it("lists each permission of the invite link, with its integer and the two scopes", () => {
    for (const p of BOT_PERMISSIONS) expect(setUp, p.shown).toContain(`*${p.shown}*`);
    expect(setUp.match(/^ {3}- \*/gm)?.length).toBe(BOT_PERMISSIONS.length);
    const url = inviteUrl("YOUR_APPLICATION_ID");
    expect(setUp).toContain(url);
    expect(url).toContain(`permissions=${botPermissions()}`);
    expect(setUp).toContain("`bot` and\n   `applications.commands`");
  });
});
