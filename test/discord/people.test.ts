// People on Discord: who started a run shows as a user mention that cannot ping (allowed_mentions empty, inside an embed).
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../commands/index.ts";
import { bodyOf, embedsOf, harnessPerTest } from "./harness.ts";

const start = harnessPerTest();

describe("Discord people", () => {
  it("lists runs with the person who started each as a non-pinging mention", async () => {
    const h = await start({ adapter: { commands: COMMANDS } });
    h.services.runs.insert({
      id: "r0people",
      channel: h.channel,
      environment: "foo",
      config: {},
      status: "completed",
      createdBy: h.fake.ids.alice,
    });
    const call = await h.fake.slash("runs").callback();
    expect(String(embedsOf(call)[0]?.["description"])).toContain(`· <@${h.fake.ids.alice}> ·`);
    const data = bodyOf(call)["data"] as { allowed_mentions?: unknown; content?: string };
    expect(data.allowed_mentions).toMatchObject({ parse: [] });
    expect(data.content ?? "").not.toContain("<@");
  });
});
