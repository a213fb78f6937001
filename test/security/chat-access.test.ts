// Plain-language chat under the policy: no model request for people without access, and tools only with the asker's permissions.
import { afterEach, describe, expect, it } from "vitest";
import { createChatHandler } from "../../adapters/chat/create-chat-handler.ts";
import { startFakeLlm, type FakeLlm } from "../fakes/llm-server.ts";
import { POLICY_ENV, SLACK, USERS, startKit, type Kit } from "./security-kit.ts";
import { personRef } from "../../src/reply.ts";

let kit: Kit | undefined;
let llm: FakeLlm | undefined;
afterEach(async () => {
  await kit?.close();
  await llm?.close();
  kit = undefined;
  llm = undefined;
});

async function start(env: Record<string, string>) {
  kit = startKit({ env: { ...POLICY_ENV, ...env } });
  llm = await startFakeLlm();
  return {
    k: kit,
    fake: llm,
    chat: createChatHandler(kit.services, { llm: { baseUrl: llm.baseUrl, model: "fake/model" } }),
  };
}

describe("chat access", () => {
  it("outside the allowlisted channels, refuses before asking the model (which costs money), and audits it", async () => {
    const { k, fake, chat } = await start({ RL_CHANNEL_ALLOWLIST: "slack:C-ALLOWED" });
    const reply = await chat("list the environments", k.ctx(USERS.operator, { via: "chat" }));
    expect(reply.title).toBe("Not allowed");
    expect(reply.delivery?.ephemeral).toBe(true);
    expect(reply.error).toMatchObject({ code: "FORBIDDEN", details: { needed: "read", role: "none" } });
    expect(reply.text).toContain("Asking me in plain words needs the read permission; you have none in this channel");
    expect(reply.text).toContain("RL_CHANNEL_ALLOWLIST (slack:C-ALLOWED)");
    expect(fake.requests).toHaveLength(0);
    expect(k.services.audit.latest(1)[0]).toMatchObject({
      ...SLACK,
      userId: USERS.operator,
      command: "chat",
      outcome: "refused",
    });

    fake.script({ text: "There is one: probe." });
    const allowed = await chat(
      "list the environments",
      k.ctx(USERS.operator, { via: "chat", channel: { ...SLACK, channel: "C-ALLOWED" } }),
    );
    expect(allowed.text).toBe("There is one: probe.");
    // Admins may use the bot anywhere.
    fake.script({ text: "Still one." });
    expect((await chat("and now?", k.ctx(USERS.admin, { via: "chat" }))).text).toBe("Still one.");
  });

  it("with RL_DEFAULT_ROLE=none, only listed people reach the model", async () => {
    const { k, fake, chat } = await start({ RL_DEFAULT_ROLE: "none" });
    const refused = await chat("hello", k.ctx("USTRANGER", { via: "chat" }));
    expect(refused.text).toBe(
      `Asking me in plain words needs the read permission; you have none. Ask one of: ${personRef(USERS.admin)}, ${personRef(USERS.operator)}, ${personRef(USERS.operator2)} (listed in RL_OPERATORS or RL_ADMINS).`,
    );
    expect(fake.requests).toHaveLength(0);
    fake.script({ text: "Hi." });
    expect((await chat("hello", k.ctx(USERS.operator, { via: "chat" }))).text).toBe("Hi.");
  });
});
