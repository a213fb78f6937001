import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { startFakeWandb, type FakeWandb } from "../fakes/wandb-server.ts";
import { tempDir } from "../helpers/test-services.ts";

const KEY = "wandb-key-for-status-0000";
const opened: Services[] = [];
const fakes: FakeWandb[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const f of fakes.splice(0)) await f.close();
});

async function setup() {
  const wandb = await startFakeWandb({ apiKey: KEY });
  fakes.push(wandb);
  let clock = 1_000_000;
  const s = createServices(
    loadConfig({ RL_LOG_LEVEL: "silent", WANDB_API_KEY: KEY, WANDB_BASE_URL: wandb.url }, tempDir()),
    { now: () => clock },
  );
  opened.push(s);
  const channel = { platform: "slack", workspace: "T", channel: "C" };
  s.runs.insert({
    id: "cafe0001",
    channel,
    environment: "arithmetic",
    config: {},
    status: "completed",
    createdBy: "U1",
  });
  s.runs.update("cafe0001", {
    wandbProject: "atropos-tinker",
    wandbGroup: "arithmetic-cafe0001",
    wandbRunName: "arithmetic-cafe0001",
  });
  return { s, wandb, advance: (ms: number) => (clock += ms) };
}

describe("status and results with WandB", () => {
  it("finds the trainer's run by the name it really uses, with its metrics and link", async () => {
    const { s, wandb } = await setup();
    wandb.addRun({
      project: "atropos-tinker",
      displayName: "arithmetic-cafe0001",
      name: "seedstyle",
      summary: { "reward/mean": 0.01 },
    });
    wandb.addRun({
      project: "atropos-tinker",
      displayName: "arithmetic-cafe0001-trainer-k3j",
      name: "tr1",
      group: "arithmetic-cafe0001",
      summary: { _step: 7, "reward/mean": 0.62, "train/loss": 0.4 },
    });
    wandb.addRun({
      project: "atropos-tinker",
      displayName: "arithmetic-2026-11-30-abc123",
      name: "env1",
      group: "arithmetic-cafe0001",
      summary: { "arith_train/percent_correct": 0.55 },
    });
    wandb.setHistory("tr1", [
      { _step: 1, "reward/mean": 0.2 },
      { _step: 7, "reward/mean": 0.62 },
    ]);
    const view = await s.report.status(s.runs.get("cafe0001")!);
    expect(view.wandb.metrics).toMatchObject({ rewardMean: 0.62, loss: 0.4, percentCorrect: 0.55 });
    expect(view.wandb.url).toMatch(/\/fake-entity\/atropos-tinker\/runs\/tr1$/);
    const results = await s.report.results(s.runs.get("cafe0001")!);
    expect(results.reward_history).toEqual([
      { step: 1, value: 0.2 },
      { step: 7, value: 0.62 },
    ]);
  });

  it("degrades, never fails, when WandB errors, and caches answers for a minute", async () => {
    const { s, wandb, advance } = await setup();
    wandb.setFault("500");
    const failed = await s.report.status(s.runs.get("cafe0001")!);
    expect(failed.status).toBe("completed");
    expect(failed.wandb.note).toMatch(/WandB unavailable/);
    expect(failed.wandb.note).not.toContain(KEY);
    wandb.setFault(null);
    wandb.addRun({
      project: "atropos-tinker",
      displayName: "arithmetic-cafe0001-trainer-x",
      name: "tr2",
      summary: { "reward/mean": 0.9 },
    });
    expect((await s.report.status(s.runs.get("cafe0001")!)).wandb.note).toMatch(/WandB unavailable/);
    advance(61_000);
    expect((await s.report.status(s.runs.get("cafe0001")!)).wandb.metrics?.rewardMean).toBe(0.9);
  });
});
