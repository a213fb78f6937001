// Each stack's samples reader: a step's rollouts picked best, worst or first from the files the real libraries write
// (Atropos scored groups, cookbook rollout summaries), read as they grow, holding an index and never the rollouts.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { indexGroups, readScoredGroups, rolloutTexts } from "../../src/stacks/atropos-tinker/read-scored-groups.ts";
import { SEED_LOCKED_FIELDS } from "../../src/locked-fields.ts";
import { buildRunConfig } from "../../src/stacks/atropos-tinker/run-config.ts";
import { MAX_SAMPLE_TEXT_CHARS } from "../../src/stacks/pick-samples.ts";
import { readRolloutSummaries } from "../../src/stacks/tinker-cookbook/read-rollout-summaries.ts";
import { tempDir } from "../helpers/test-services.ts";

const INJECTIONS = "<!channel> @everyone <https://x|y> *bold*";

/** One ScoredDataGroup line as atroposlib's BaseEnv writes it with include_messages on. */
function groupLine(question: string, answers: string[], scores: number[], padTokens = 0): string {
  return JSON.stringify({
    tokens: answers.map((_, i) => Array.from({ length: 4 + padTokens }, (__, t) => t + i)),
    masks: answers.map(() => [-100, -100, 5, 6]),
    scores,
    advantages: null,
    ref_logprobs: null,
    messages: answers.map((a) => [
      { role: "system", content: "Answer briefly." },
      { role: "user", content: question },
      { role: "assistant", content: a },
    ]),
    generation_params: { temperature: 1.0, n: answers.length },
    inference_logprobs: null,
    overrides: null,
    images: null,
    group_overrides: null,
  });
}

function runYaml(dir: string, batchSize: number, groupSize: number): string {
  const file = path.join(dir, "run.yaml");
  writeFileSync(file, `env:\n  batch_size: ${batchSize}\n  group_size: ${groupSize}\ntinker: {}\n`);
  return file;
}

describe("Atropos scored groups", () => {
  it("are written to the run's folder: the bot sets data_path_to_save_groups over any other value", () => {
    const locked = { ...SEED_LOCKED_FIELDS, env: { data_path_to_save_groups: "elsewhere.jsonl" } };
    const config = buildRunConfig({
      runId: "r1",
      environment: "demo",
      values: { data_path_to_save_groups: "mine.jsonl" },
      locked,
      wandbProject: "p",
      groupsPath: "/data/runs/r1/groups.jsonl",
    });
    expect(config.env).toMatchObject({
      data_path_to_save_groups: "/data/runs/r1/groups.jsonl",
      include_messages: true,
    });
  });

  it("counts steps batch_size / group_size groups at a time and picks the best, the worst or the first", async () => {
    const dir = tempDir();
    const config = runYaml(dir, 4, 2);
    const lines = [
      groupLine("q0", ["a", "b"], [1, 0]),
      groupLine("q1", ["c", "d"], [0.5, 0.25]),
      groupLine("q2", [`best ${INJECTIONS}`, "f"], [2, -1]),
      groupLine("q3", ["g", "h"], [0, 0]),
      groupLine("q4", ["i", "j"], [1, 1]),
    ];
    writeFileSync(path.join(dir, "groups.jsonl"), lines.join("\n") + "\n");
    const latest = await readScoredGroups(dir, config, { pick: "best", n: 1 });
    // Step 2 has one of its two groups so far: the latest whole step is 1.
    expect(latest).toMatchObject({ step: 1, firstStep: 0, lastStep: 2, groups: 2, rollouts: 4, skipped: 0 });
    expect(latest!.note).toMatch(/2 groups of 2 at a time \(the trainer's batch_size 4\)/);
    expect(latest!.samples).toEqual([
      {
        group: 0,
        index: 0,
        score: 2,
        groupScores: [2, -1],
        prompt: "system: Answer briefly.\nuser: q2",
        completion: `best ${INJECTIONS}`,
      },
    ]);
    const worst = await readScoredGroups(dir, config, { step: 0, pick: "worst", n: 2 });
    expect(worst!.samples.map((s) => [s.score, s.completion])).toEqual([
      [0, "b"],
      [0.25, "d"],
    ]);
    const first = await readScoredGroups(dir, config, { step: 2, pick: "first", n: 3 });
    expect(first!.samples.map((s) => s.completion)).toEqual(["i", "j"]);
    // The file grows: step 2 completes and becomes the latest.
    appendFileSync(path.join(dir, "groups.jsonl"), groupLine("q5", ["k", "l"], [3, 0]) + "\n");
    expect((await readScoredGroups(dir, config, { pick: "best", n: 1 }))!.samples[0]!.completion).toBe("k");
  });

  it("counts a step as the trainer's registered batch size in groups as big as the file's own, whatever the YAML says", async () => {
    const eights = (n: number) =>
      Array.from({ length: n }, (_, g) => groupLine(`q${g}`, Array(8).fill(`a${g}`), Array(8).fill(g))).join("\n") +
      "\n";
    // tinker-atropos registers 128 when the YAML has no batch_size; the environment's config_init made groups of 8.
    const real = tempDir();
    writeFileSync(path.join(real, "run.yaml"), "env:\n  group_size: 4\ntinker: {}\n");
    writeFileSync(path.join(real, "groups.jsonl"), eights(40));
    const read = await readScoredGroups(real, path.join(real, "run.yaml"), { pick: "first", n: 1 });
    expect(read).toMatchObject({ step: 1, lastStep: 2, groups: 16, rollouts: 128 });
    expect(read!.samples[0]!.completion).toBe("a16");
    expect(read!.note).toMatch(/16 groups of 8 at a time \(the trainer's batch_size 128\)/);
    // The demo trainer registers group_size x 4 (16 x 4 with none in the YAML): 8 groups of 8 a step.
    const demo = tempDir();
    writeFileSync(path.join(demo, "run.yaml"), "env: {}\ntinker: {}\n");
    writeFileSync(path.join(demo, "groups.jsonl"), eights(20));
    const demoRead = await readScoredGroups(demo, path.join(demo, "run.yaml"), { step: 1, pick: "first", n: 1 }, true);
    expect(demoRead).toMatchObject({ step: 1, lastStep: 2, groups: 8, rollouts: 64 });
    expect(demoRead!.samples[0]!.completion).toBe("a8");
  });

  it("reads the newest file of a restarted environment, and says nothing was written when there is none", async () => {
    const dir = tempDir();
    expect(await readScoredGroups(dir, undefined, { pick: "first", n: 1 })).toBeUndefined();
    writeFileSync(path.join(dir, "groups.jsonl"), groupLine("old", ["x", "y"], [1, 0]) + "\n");
    writeFileSync(path.join(dir, "groups_1.jsonl"), groupLine("new", ["z", "w"], [1, 0]) + "\n");
    const read = await readScoredGroups(dir, undefined, { pick: "first", n: 1 });
    expect(read!.samples[0]!.prompt).toMatch(/new/);
    expect(read!.note).toMatch(/each group counts as a step/);
  });

  it("tells token-only groups (include_messages off) and skips lines that are not groups", async () => {
    const dir = tempDir();
    const tokenOnly = JSON.stringify({ tokens: [[1], [2]], masks: [[1], [2]], scores: [1, 0], messages: null });
    writeFileSync(path.join(dir, "groups.jsonl"), `not json\n${tokenOnly}\n`);
    const read = await readScoredGroups(dir, runYaml(dir, 4, 2), { step: 0, pick: "first", n: 5 });
    expect(read).toMatchObject({ skipped: 1, groups: 1, rollouts: 2 });
    expect(read!.samples[0]!.completion).toMatch(/token ids only/);
    expect(rolloutTexts([{ role: "user", content: [{ type: "text", text: "hi" }] }])).toEqual({
      prompt: "user: hi",
      completion: "",
    });
  });

  it("keeps an index of step starts whose size depends on the steps, not on the bytes written", async () => {
    const dir = tempDir();
    const write = (file: string, pad: number) => {
      const line = groupLine("q", ["a", "b", "c", "d"], [1, 0, 0.5, 0.25], pad) + "\n";
      writeFileSync(file, line.repeat(4 * 200));
    };
    const small = path.join(dir, "small.jsonl");
    const big = path.join(dir, "big.jsonl");
    write(small, 0);
    write(big, 8000); // about 40 KB a line, 32 MB in all
    const retained = (index: { groups: number; stepStarts: number[] }) => 8 * (1 + index.stepStarts.length);
    const a = await indexGroups(small, 4);
    const b = await indexGroups(big, 4);
    expect(b.groups).toBe(800);
    expect(b.stepStarts).toHaveLength(200);
    expect(retained(b)).toBe(retained(a));
    expect(retained(b)).toBeLessThan(2 * 1024);
    // A query holds at most n rollouts, each text cut to the bound.
    const huge = "z".repeat(MAX_SAMPLE_TEXT_CHARS * 3);
    const hugeDir = tempDir();
    writeFileSync(path.join(hugeDir, "groups.jsonl"), groupLine("q", [huge, huge], [1, 0]) + "\n");
    const read = await readScoredGroups(hugeDir, undefined, { pick: "best", n: 1 });
    expect(read!.samples).toHaveLength(1);
    expect(read!.samples[0]!.completion.length).toBe(MAX_SAMPLE_TEXT_CHARS);
    expect(read!.samples[0]!.cut).toBe(true);
  });
});

/** One rollout record as tinker-cookbook's serialize_rollout_summaries writes it (schema 1). */
function rolloutRecord(iteration: number, group: number, traj: number, reward: number, logs: Record<string, unknown>) {
  return JSON.stringify({
    schema_version: 1,
    split: "train",
    iteration,
    group_idx: group,
    traj_idx: traj,
    tags: ["t"],
    sampling_client_step: iteration,
    total_reward: reward,
    final_reward: 0,
    trajectory_metrics: {},
    steps: [{ step_idx: 0, ob_len: 5, ac_len: 3, reward, episode_done: true, metrics: {}, logs }],
    final_ob_len: 8,
  });
}

describe("cookbook rollout summaries", () => {
  it("reads the latest iteration's records by group, with the Env's logged prompt and response", async () => {
    const dir = tempDir();
    const write = (i: number, records: string[]) => {
      const folder = path.join(dir, `iteration_${String(i).padStart(6, "0")}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, "train_rollout_summaries.jsonl"), records.join("\n") + "\n");
    };
    write(0, [rolloutRecord(0, 0, 0, 0, { question: "1+1?", response: "3" })]);
    write(1, [
      rolloutRecord(1, 0, 0, 1, { question: "2+2?", response: `4 ${INJECTIONS}` }),
      rolloutRecord(1, 0, 1, 0, { question: "2+2?", response: "5" }),
      rolloutRecord(1, 1, 0, 0.5, { guess: "7", feedback: "higher" }),
      rolloutRecord(1, 1, 1, 0.2, {}),
    ]);
    mkdirSync(path.join(dir, "iteration_000002")); // under way: no records yet
    const best = await readRolloutSummaries(dir, { pick: "best", n: 2 });
    expect(best).toMatchObject({ step: 2, lastStep: 2, groups: 0, samples: [] });
    const one = await readRolloutSummaries(dir, { step: 1, pick: "best", n: 3 });
    expect(one).toMatchObject({ step: 1, firstStep: 0, groups: 2, rollouts: 4 });
    expect(one!.samples.map((s) => [s.group, s.index, s.score, s.groupScores, s.prompt, s.completion])).toEqual([
      [0, 0, 1, [1, 0], "2+2?", `4 ${INJECTIONS}`],
      [1, 0, 0.5, [0.5, 0.2], "", "7\nfeedback: higher"],
      [1, 1, 0.2, [0.5, 0.2], "", "(no text: the recipe's environment logs none; 5 prompt and 3 completion tokens)"],
    ]);
    expect(await readRolloutSummaries(path.join(dir, "nothing"), { pick: "first", n: 1 })).toBeUndefined();
  });
});
