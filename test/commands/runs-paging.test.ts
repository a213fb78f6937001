// /rl runs pages through every run (Newer / Older, --page), takes --limit within a stated range, and answers privately.
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { buttonCommand, type Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import { testServices } from "../helpers/test-services.ts";

const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const here = { platform: "slack", workspace: "T1", channel: "C1" };
const there = { platform: "slack", workspace: "T1", channel: "C2" };

/** 140 runs, r000 the oldest: the first 100 here, 40 in another channel. */
function withRuns(): Services {
  let clock = 1_700_000_000_000;
  const s = testServices({}, { now: () => clock });
  opened.push(s);
  for (let i = 0; i < 140; i++) {
    clock += 1000;
    s.runs.insert({
      id: `r${String(i).padStart(3, "0")}`,
      channel: i >= 100 ? there : here,
      environment: "gsm8k",
      config: {},
      status: "completed",
      createdBy: "U1",
    });
  }
  return s;
}

const ctx = (s: Services, via: CommandContext["via"] = "slash"): CommandContext => ({
  channel: here,
  user: { id: "U1" },
  via,
  services: s,
});

const idsOf = (reply: Reply): string[] => (reply.data as { runs: Array<{ run_id: string }> }).runs.map((r) => r.run_id);
const buttons = (reply: Reply): Array<[string, string]> =>
  (reply.buttons ?? []).map((b) => [b.label, buttonCommand(b)]);

describe("/rl runs", () => {
  it("pages through every run of every channel with --all, Older and Newer turning the pages", async () => {
    const s = withRuns();
    const first = (await dispatch({ text: "/rl runs --all" }, ctx(s))).reply;
    expect(first.title).toBe("Runs (all channels): 1–20 of 140 (page 1 of 7)");
    expect(idsOf(first)[0]).toBe("r139");
    expect(buttons(first)).toEqual([["Older ▶", "/rl runs --all --page 2"]]);
    const seen: string[] = [];
    let reply = first;
    for (let page = 1; page <= 7; page++) {
      seen.push(...idsOf(reply));
      const older = (reply.buttons ?? []).find((b) => b.label.startsWith("Older"));
      if (page === 7) {
        expect(older).toBeUndefined();
        break;
      }
      reply = (await dispatch({ text: buttonCommand(older!) }, ctx(s, "button"))).reply;
      expect(reply.title).toContain(`(page ${page + 1} of 7)`);
      expect(buttons(reply)[0]).toEqual(["◀ Newer", `/rl runs --all --page ${page}`]);
    }
    expect(seen).toHaveLength(140);
    expect(new Set(seen).size).toBe(140);
    expect(seen.at(-1)).toBe("r000");
    expect(reply.data).toMatchObject({ total: 140, page: 7, pages: 7, count: 20 });
  });

  it("takes --limit up to 500 (all 140 on one page) and says the accepted range when out of it", async () => {
    const s = withRuns();
    const all = (await dispatch({ text: "/rl runs --all --limit 200" }, ctx(s))).reply;
    expect(all.error).toBeUndefined();
    expect(all.title).toBe("Runs (all channels): 1–140 of 140");
    expect(idsOf(all)).toHaveLength(140);
    expect(all.buttons).toBeUndefined();
    for (const limit of ["0", "501"]) {
      const refused = await dispatch({ text: `/rl runs --limit ${limit}` }, ctx(s));
      expect(refused.ok).toBe(false);
      expect(refused.reply.text).toContain("limit: must be between 1 and 500.");
    }
    // The channel's own runs, a page of 30, keeping the limit on the buttons.
    const mine = (await dispatch({ text: "/rl runs --limit 30 --page 2" }, ctx(s))).reply;
    expect(mine.title).toBe("Runs: 31–60 of 100 (page 2 of 4)");
    expect(buttons(mine)).toEqual([
      ["◀ Newer", "/rl runs --limit 30 --page 1"],
      ["Older ▶", "/rl runs --limit 30 --page 3"],
    ]);
    // A page past the end shows the oldest page.
    const past = (await dispatch({ text: "/rl runs --page 99" }, ctx(s))).reply;
    expect(past.title).toBe("Runs: 81–100 of 100 (page 5 of 5)");
  });

  it("answers a person privately with a way to post it, and the model and the console as before", async () => {
    const s = withRuns();
    for (const via of ["slash", "button"] as const)
      expect((await dispatch({ text: "/rl runs" }, ctx(s, via))).reply.delivery).toMatchObject({
        ephemeral: true,
        shareable: true,
      });
    for (const via of ["chat", "console", "cli"] as const)
      expect((await dispatch({ text: "/rl runs" }, ctx(s, via))).reply.delivery).toBeUndefined();
    // Team actions stay public: the property is the command's own.
    const { COMMANDS } = await import("../../commands/index.ts");
    const personal = COMMANDS.filter((c) => c.personal).map((c) => c.name);
    expect(personal.sort()).toEqual(["budget", "checkpoints", "config", "envs", "logs", "notify", "runs", "status"]);
  });
});
