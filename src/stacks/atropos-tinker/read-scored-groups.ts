// The samples of an Atropos run: the scored groups its environment writes to data_path_to_save_groups (one JSON
// ScoredDataGroup a line, as atroposlib's BaseEnv writes them), indexed as the file grows and read a step at a time.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { createLogFollower } from "../../metrics/follow-log.ts";
import { readLineRange } from "../../metrics/read-line-range.ts";
import { createSamplePicker, scoreOf, type SampleTexts } from "../pick-samples.ts";
import type { SampleQuery, StepSamples } from "../training-stack.ts";
import { registeredBatchSize } from "./trainer-batch-size.ts";

/** The file the bot has the environment write (atroposlib adds _1, _2, ... when it already exists: a restart). */
export const GROUPS_FILE = "groups.jsonl";
/** A group line longer than this is passed over when a step is read (real groups of long rollouts are a few MB). */
const MAX_GROUP_LINE_BYTES = 16 * 1024 * 1024;
/** atroposlib's BaseEnvConfig default, for a file whose first group cannot be read. */
const DEFAULT_GROUP_SIZE = 4;

/** Where each step's first group starts, counting a fixed number of groups a step. */
interface GroupIndex {
  groups: number;
  stepStarts: number[];
}

const followers = new Map<number, (file: string) => Promise<GroupIndex>>();

function followerFor(groupsPerStep: number): (file: string) => Promise<GroupIndex> {
  let follow = followers.get(groupsPerStep);
  if (!follow) {
    const addGroup = (state: GroupIndex, start: number) => {
      if (state.groups % groupsPerStep === 0) state.stepStarts.push(start);
      state.groups += 1;
    };
    follow = createLogFollower<GroupIndex>({
      initial: () => ({ groups: 0, stepStarts: [] }),
      add: (state, line, start) => {
        if (line.trim() !== "") addGroup(state, start);
      },
      addLong: addGroup,
    });
    followers.set(groupsPerStep, follow);
  }
  return follow;
}

/** The index kept of a groups file (all the reader holds between queries): exported to measure what it retains. */
export const indexGroups = (file: string, groupsPerStep: number): Promise<GroupIndex> =>
  followerFor(groupsPerStep)(file);

/** The newest of groups.jsonl, groups_1.jsonl, ...: the environment's latest start writes it. */
export function latestGroupsFile(folder: string): string | undefined {
  const first = path.join(folder, GROUPS_FILE);
  if (!existsSync(first)) return undefined;
  let latest = first;
  for (let n = 1; ; n++) {
    const next = path.join(folder, `groups_${n}.jsonl`);
    if (!existsSync(next)) return latest;
    latest = next;
  }
}

/** What counting steps needs: the trainer's registered batch size, or why it is not known. */
type StepCount = { groupsPerStep: number; note: string };

/** The run YAML's env: section, as the bot wrote it (undefined when it cannot be read). */
function writtenEnv(configPath: string | undefined): Record<string, unknown> | undefined {
  if (!configPath) return undefined;
  try {
    return (parseYaml(readFileSync(configPath, "utf8")) as { env?: Record<string, unknown> } | null)?.env ?? {};
  } catch {
    return undefined;
  }
}

/** How many sequences the file's first group holds (its scores): the environment's group_size, whatever set it. */
async function firstGroupSize(file: string): Promise<number | undefined> {
  let size: number | undefined;
  await readLineRange(file, { start: 0, maxLineBytes: MAX_GROUP_LINE_BYTES }, (line) => {
    if (line !== undefined && line.trim() === "") return true;
    try {
      const scores = line === undefined ? undefined : (JSON.parse(line) as { scores?: unknown }).scores;
      if (Array.isArray(scores) && scores.length > 0) size = scores.length;
    } catch {
      // Not a group: the next line may be.
      return true;
    }
    return size === undefined;
  });
  return size;
}

/**
 * Groups a step: the trainer takes exactly its registered batch_size sequences a step, whole groups only (atroposlib's
 * api/utils.py), and a group holds as many sequences as its scores (the environment's group_size, which its own
 * config_init may set when the run YAML does not).
 */
async function countSteps(file: string, configPath: string | undefined, demo: boolean): Promise<StepCount> {
  const env = writtenEnv(configPath);
  const batch = env ? registeredBatchSize(env, demo) : undefined;
  if (batch === undefined || batch <= 0)
    return {
      groupsPerStep: 1,
      note: "the environment's file numbers no steps and the trainer's batch size is not known: each group counts as a step",
    };
  const yamlGroup = typeof env?.group_size === "number" && env.group_size > 0 ? env.group_size : undefined;
  const groupSize = (await firstGroupSize(file)) ?? yamlGroup ?? DEFAULT_GROUP_SIZE;
  const groupsPerStep = Math.max(1, Math.floor(batch / groupSize));
  return {
    groupsPerStep,
    note: `the environment's file numbers no steps: steps are counted ${groupsPerStep} groups of ${groupSize} at a time (the trainer's batch_size ${batch})`,
  };
}

const contentText = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) => (typeof part === "object" && part && "text" in part ? String(part.text) : ""))
      .join("");
  return content === undefined || content === null ? "" : JSON.stringify(content);
};

/** The prompt (every message before the model's last turn) and the completion (that turn) of one rollout. */
export function rolloutTexts(messages: unknown): SampleTexts {
  if (!Array.isArray(messages) || messages.length === 0)
    return { prompt: "", completion: "(no text: the environment wrote token ids only, include_messages was off)" };
  const turns = messages.map((m) => (typeof m === "object" && m ? (m as Record<string, unknown>) : {}));
  const last = turns.at(-1)!;
  const answered = last.role === "assistant";
  const before = answered ? turns.slice(0, -1) : turns;
  return {
    prompt: before.map((m) => `${String(m.role ?? "?")}: ${contentText(m.content)}`).join("\n"),
    completion: answered ? contentText(last.content) : "",
  };
}

export async function readScoredGroups(
  folder: string,
  configPath: string | undefined,
  query: SampleQuery,
  demo = false,
): Promise<StepSamples | undefined> {
  const file = latestGroupsFile(folder);
  if (!file) return undefined;
  const { groupsPerStep, note } = await countSteps(file, configPath, demo);
  const index = await indexGroups(file, groupsPerStep);
  if (index.groups === 0) return undefined;
  const lastStep = index.stepStarts.length - 1;
  const complete = Math.floor(index.groups / groupsPerStep) - 1;
  // The latest step all of whose groups are written (a step under way shows only a few of them).
  const step = query.step ?? (complete >= 0 ? complete : lastStep);
  const result: StepSamples = {
    step,
    firstStep: 0,
    lastStep,
    groups: 0,
    rollouts: 0,
    samples: [],
    skipped: 0,
    note,
  };
  const start = index.stepStarts[step];
  if (start === undefined) return result;
  const picker = createSamplePicker(query);
  let read = 0;
  await readLineRange(file, { start, maxLineBytes: MAX_GROUP_LINE_BYTES }, (line) => {
    if (line !== undefined && line.trim() === "") return true;
    const group = read++;
    let parsed: { scores?: unknown; messages?: unknown } | undefined;
    try {
      parsed = line === undefined ? undefined : (JSON.parse(line) as typeof parsed);
    } catch {
      parsed = undefined;
    }
    const scores = Array.isArray(parsed?.scores) ? parsed.scores.map(scoreOf) : undefined;
    if (!scores) result.skipped += 1;
    else {
      result.groups += 1;
      const groupScores = scores.filter((s): s is number => s !== undefined);
      const messages = Array.isArray(parsed?.messages) ? (parsed.messages as unknown[]) : [];
      scores.forEach((score, i) => {
        if (score === undefined) return;
        result.rollouts += 1;
        picker.offer(group, i, score, groupScores, () => rolloutTexts(messages[i]));
      });
    }
    return read < groupsPerStep;
  });
  result.samples = picker.picked();
  return result;
}
