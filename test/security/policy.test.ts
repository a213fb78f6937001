// The access policy on its own: entries per platform, Discord roles by id and by name, the channel allowlist, refusal wording.
import { describe, expect, it } from "vitest";
import type { ChannelKey } from "../../db/channel-key.ts";
import { personRef } from "../../src/reply.ts";
import {
  accessOf,
  channelAllowed,
  holdersOf,
  refusalMessage,
  roleOf,
  type Policy,
  type PolicySubject,
} from "../../src/policy.ts";

const policy = (p: Partial<Policy> = {}): Policy => ({
  admins: [],
  operators: [],
  defaultRole: "read",
  channelAllowlist: [],
  ...p,
});
const slack: ChannelKey = { platform: "slack", workspace: "T1", channel: "C1" };
const discord: ChannelKey = { platform: "discord", workspace: "900000000000000001", channel: "900000000000000002" };
const ADMIN_ROLE = "111111111111111111";
const OPS_ROLE = "222222222222222222";

describe("roleOf", () => {
  it("gives the console and the command line admin, whatever the lists say", () => {
    const p = policy({ defaultRole: "none", channelAllowlist: ["slack:C9"] });
    expect(roleOf(p, { platform: "console", workspace: "local", channel: "console" }, { id: "anyone" })).toBe("admin");
    expect(roleOf(p, { platform: "cli", workspace: "local", channel: "console" }, { id: "anyone" })).toBe("admin");
  });

  it("gives a remote person on a console channel (an agent over HTTP) their listed role, not the terminal's admin", () => {
    const mcpChannel = { platform: "console", workspace: "local", channel: "mcp" };
    const p = policy({ operators: ["console:alice"], admins: ["console:carol"] });
    expect(roleOf(p, mcpChannel, { id: "bob", remote: true })).toBe("read");
    expect(roleOf(p, mcpChannel, { id: "alice", remote: true })).toBe("operate");
    expect(roleOf(p, mcpChannel, { id: "carol", remote: true })).toBe("admin");
    expect(roleOf(policy({ defaultRole: "none" }), mcpChannel, { id: "bob", remote: true })).toBe("none");
  });

  it.each([
    ["slack:U1", slack, "U1", "admin"],
    ["U1", slack, "U1", "admin"],
    ["Slack:U1", slack, "U1", "admin"],
    [" slack:U1 ", slack, "U1", "admin"],
    ["slack:U1", discord, "U1", "read"],
    ["discord:U1", slack, "U1", "read"],
    ["slack:u1", slack, "U1", "read"],
    ["slack:U1", slack, "U12", "read"],
    ["slack:U12", slack, "U1", "read"],
  ] as const)("admin entry %j on %j for user %s: %s", (entry, channel, id, role) => {
    expect(roleOf(policy({ admins: [entry] }), channel, { id })).toBe(role);
  });

  it("matches Discord roles by id exactly and by name without case, on Discord only", () => {
    const p = policy({ admins: [`discord:role:${ADMIN_ROLE}`], operators: ["discord:role:Trainers"] });
    expect(roleOf(p, discord, { id: "7", roles: [ADMIN_ROLE, "Admins"] })).toBe("admin");
    expect(roleOf(p, discord, { id: "7", roles: [OPS_ROLE, "trainers"] })).toBe("operate");
    expect(roleOf(p, discord, { id: "7", roles: [OPS_ROLE, "Trainers-old"] })).toBe("read");
    // A Slack user cannot hold a Discord role, whatever the adapter passed.
    expect(roleOf(p, slack, { id: "U7", roles: [ADMIN_ROLE, "Trainers"] })).toBe("read");
  });

  it("never takes a user id for a role or a role for a user id", () => {
    // The operators' role is named like a user id; that user holds no role.
    const p = policy({ operators: ["discord:role:333333333333333333"], admins: ["discord:444444444444444444"] });
    expect(roleOf(p, discord, { id: "333333333333333333" })).toBe("read");
    // A role whose id (or name) equals the admin's user id does not make its members admins.
    expect(roleOf(p, discord, { id: "7", roles: ["444444444444444444"] })).toBe("read");
    expect(roleOf(p, discord, { id: "444444444444444444" })).toBe("admin");
    // A role entry without a platform is not a user id "role:...".
    expect(roleOf(policy({ admins: ["role:Admins"] }), discord, { id: "role:Admins", roles: ["Admins"] })).toBe("read");
    expect(roleOf(policy({ admins: ["discord:role:"] }), discord, { id: "7", roles: [""] })).toBe("read");
  });

  it("with role ids and names apart, an id entry never matches a role merely named like that id", () => {
    const p = policy({ admins: [`discord:role:${ADMIN_ROLE}`] });
    const impostor: PolicySubject = { id: "7", roleIds: [OPS_ROLE], roleNames: [ADMIN_ROLE] };
    const member: PolicySubject = { id: "8", roleIds: [ADMIN_ROLE], roleNames: ["Admins"] };
    expect(roleOf(p, discord, impostor)).toBe("read");
    expect(roleOf(p, discord, member)).toBe("admin");
    expect(roleOf(policy({ admins: ["discord:role:admins"] }), discord, member)).toBe("admin");
    expect(roleOf(policy({ admins: ["discord:role:Admins"] }), discord, impostor)).toBe("read");
  });

  it("never lowers a listed person below the default role", () => {
    expect(roleOf(policy({ defaultRole: "admin", operators: ["slack:U1"] }), slack, { id: "U1" })).toBe("admin");
    expect(roleOf(policy({ defaultRole: "none", operators: ["slack:U1"] }), slack, { id: "U1" })).toBe("operate");
    expect(roleOf(policy({ defaultRole: "none" }), slack, { id: "U1" })).toBe("none");
  });

  it("keeps everyone but admins to the allowlisted channels, in every spelling of a channel", () => {
    const p = policy({
      admins: ["slack:UADMIN"],
      operators: ["slack:UOPS"],
      channelAllowlist: ["slack:C1", "Discord:900000000000000002", "slack:T2:C7", "C8"],
    });
    expect(accessOf(p, slack, { id: "UOPS" })).toEqual({ role: "operate", reason: "operator" });
    expect(accessOf(p, { ...slack, channel: "C2" }, { id: "UOPS" })).toEqual({ role: "none", reason: "channel" });
    expect(accessOf(p, { ...slack, channel: "C2" }, { id: "U1" })).toEqual({ role: "none", reason: "channel" });
    // Admins act anywhere (docs/team-controls.md: the list names "the channels where non-admins may use the bot").
    expect(accessOf(p, { ...slack, channel: "C2" }, { id: "UADMIN" })).toEqual({ role: "admin", reason: "admin" });
    expect(roleOf(p, discord, { id: "9" })).toBe("read");
    expect(channelAllowed(p, { platform: "slack", workspace: "T2", channel: "C7" })).toBe(true);
    expect(channelAllowed(p, { platform: "slack", workspace: "T3", channel: "C7" })).toBe(false);
    expect(channelAllowed(p, { platform: "slack", workspace: "T3", channel: "C8" })).toBe(true);
    // "slack:C1" allows Slack's C1 only: a Discord channel with that id is another channel.
    expect(channelAllowed(p, { platform: "discord", workspace: "G", channel: "C1" })).toBe(false);
    expect(channelAllowed(policy(), { platform: "slack", workspace: "T", channel: "anything" })).toBe(true);
  });
});

describe("refusals", () => {
  it("say what is needed, what the person has, and who has it", () => {
    const p = policy({ admins: ["slack:UADMIN"], operators: ["slack:UOPS", "discord:role:Trainers"] });
    const operate = refusalMessage(p, accessOf(p, slack, { id: "U1" }), "/rl select", "operate", "slack");
    expect(operate).toBe(
      `/rl select needs the operate permission; you have read. Ask one of: ${personRef("UADMIN")}, ${personRef("UOPS")} (listed in RL_OPERATORS or RL_ADMINS).`,
    );
    const admin = refusalMessage(p, accessOf(p, slack, { id: "UOPS" }), "/rl audit", "admin", "slack");
    expect(admin).toBe(
      `/rl audit needs the admin permission; you have operate. Ask one of: ${personRef("UADMIN")} (listed in RL_ADMINS).`,
    );
    // On Discord the same policy names the role, and no Slack person.
    const discordAsk = refusalMessage(p, accessOf(p, discord, { id: "9" }), "/rl select", "operate", "discord");
    expect(discordAsk).toContain("Ask one of: anyone with the Trainers role (listed in RL_OPERATORS or RL_ADMINS).");
  });

  it("say what to configure when no one holds the permission", () => {
    const p = policy({ defaultRole: "read" });
    expect(holdersOf(p, "admin")).toEqual([]);
    expect(refusalMessage(p, accessOf(p, slack, { id: "U1" }), "/rl audit", "admin", "slack")).toMatch(
      /you have read\. No one is listed in RL_ADMINS yet; ask the bot's operator to add you there\.$/,
    );
  });

  it("blame the channel, not the person, outside the allowlist", () => {
    const p = policy({ admins: ["slack:UADMIN"], channelAllowlist: ["slack:C1", "slack:C2"] });
    const text = refusalMessage(p, accessOf(p, { ...slack, channel: "C5" }, { id: "U1" }), "/rl envs", "read", "slack");
    expect(text).toBe(
      `/rl envs needs the read permission; you have none in this channel: outside the channels listed in RL_CHANNEL_ALLOWLIST (slack:C1, slack:C2) only admins may use the bot. Use one of those channels, or ask an admin (${personRef("UADMIN")}) to add this one.`,
    );
  });
});
