// Starting and stopping the adapter: a refused or missing token fails start() with a CONFIG error naming the variable.
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../../adapters/discord/discord.ts";
import type { Services } from "../../src/services.ts";
import { startFakeDiscord, type FakeDiscord } from "../fakes/discord-gateway.ts";
import { tempDir, testServices } from "../helpers/test-services.ts";

let fake: FakeDiscord | undefined;
let services: Services | undefined;

afterEach(async () => {
  await services?.close();
  await fake?.close();
  services = undefined;
  fake = undefined;
});

function servicesFor(env: Record<string, string>): Services {
  const root = tempDir("rl-discord-start-");
  services = testServices({ RL_TRAINING_ROOT: root, RL_ENVIRONMENTS_DIR: root, ...env });
  return services;
}

describe("start", () => {
  it("rejects a token Discord refuses with a CONFIG error naming DISCORD_TOKEN", async () => {
    fake = await startFakeDiscord();
    const adapter = createDiscordAdapter(servicesFor({ DISCORD_TOKEN: "not-the-token", DISCORD_API_URL: fake.apiUrl }));
    await expect(adapter.start()).rejects.toMatchObject({
      code: "CONFIG",
      message: expect.stringContaining("DISCORD_TOKEN"),
    });
    await adapter.stop();
    expect(fake.counts.identify).toBe(0);
  });

  it("needs DISCORD_TOKEN", async () => {
    const adapter = createDiscordAdapter(servicesFor({}));
    await expect(adapter.start()).rejects.toMatchObject({
      code: "CONFIG",
      message: expect.stringContaining("Set DISCORD_TOKEN"),
    });
    await expect(
      adapter.post({ channel: { platform: "discord", workspace: "g", channel: "c" } }, { title: "x" }),
    ).rejects.toMatchObject({ code: "UPSTREAM" });
  });

  it("starts once, stops cleanly, and can start again", async () => {
    fake = await startFakeDiscord();
    const adapter = createDiscordAdapter(
      servicesFor({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: `${fake.apiUrl}/` }),
    );
    await adapter.start();
    await adapter.start();
    expect(fake.counts.identify).toBe(1);
    await adapter.stop();
    await adapter.stop();
    await adapter.start();
    expect(fake.counts.identify).toBe(2);
    await adapter.stop();
  });
});
