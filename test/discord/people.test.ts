// People on Discord: who started a run shows as a user mention that cannot ping (allowed_mentions empty, inside an embed).
import { afterEach, describe, expect, it } from "vitest";
import { COMMANDS } from "../../commands/index.ts";
import { bodyOf, embedsOf, startHarness, stopHarness, type Harness } from "./harness.ts";

let h: Harness | undefined;

afterEach(async () => {
  await stopHarness(h);
  h = undefined;
});

describe("Discord people", () => {
  it("lists runs with the person who started each as a non-pinging mention", async () => {
    h = await startHarness({ adapter: { commands: COMMANDS } });
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
