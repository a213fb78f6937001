// Keeps the rollouts a samples query wants while a step's records stream past: at most n of them, texts cut to a
// bound, so a step of any size is read in the same memory.
import { readLineRange } from "../metrics/read-line-range.ts";
import type { Sample, SampleQuery, StepSamples } from "./training-stack.ts";

/** The most of a prompt or completion kept (the console shows all of it; chat surfaces cut far shorter). */
export const MAX_SAMPLE_TEXT_CHARS = 100_000;
/** The most of a group's scores kept. */
const MAX_GROUP_SCORES = 64;

export interface SampleTexts {
  prompt: string;
  completion: string;
}

export interface SamplePicker {
  /** Offers one rollout; its texts are made only when it is kept. */
  offer(group: number, index: number, score: number, groupScores: number[], texts: () => SampleTexts): void;
  picked(): Sample[];
}

/** The texts cut to what the picker keeps, for a reader that must hold a few rollouts before offering them. */
export const cutTexts = (texts: SampleTexts): SampleTexts => ({
  prompt: texts.prompt.slice(0, MAX_SAMPLE_TEXT_CHARS + 1),
  completion: texts.completion.slice(0, MAX_SAMPLE_TEXT_CHARS + 1),
});

function cutText(text: string): { text: string; cut: boolean } {
  return text.length > MAX_SAMPLE_TEXT_CHARS
    ? { text: text.slice(0, MAX_SAMPLE_TEXT_CHARS), cut: true }
    : { text, cut: false };
}

export function createSamplePicker(query: SampleQuery): SamplePicker {
  const kept: Sample[] = [];
  const better = (a: number, b: number) => (query.pick === "worst" ? a < b : a > b);
  return {
    offer(group, index, score, groupScores, texts) {
      if (query.pick === "first") {
        if (kept.length >= query.n) return;
      } else if (kept.length >= query.n && !better(score, kept.at(-1)!.score)) return;
      const { prompt, completion } = texts();
      const p = cutText(prompt);
      const c = cutText(completion);
      const sample: Sample = {
        group,
        index,
        score,
        groupScores: groupScores.slice(0, MAX_GROUP_SCORES),
        prompt: p.text,
        completion: c.text,
        ...(p.cut || c.cut ? { cut: true } : {}),
      };
      if (query.pick === "first") {
        kept.push(sample);
        return;
      }
      // Sorted best first (or worst first); ties keep the earlier rollout ahead.
      const at = kept.findIndex((k) => better(score, k.score));
      kept.splice(at === -1 ? kept.length : at, 0, sample);
      if (kept.length > query.n) kept.pop();
    },
    picked: () => kept,
  };
}

/** A finite number, or undefined: scores written by Python may be NaN or missing. */
export const scoreOf = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/**
 * Rollouts of one group are written one after another: each is held until its group ends (the next record's group key
 * differs, or `end`), then the group is offered with all its scores. `counts.groups` counts the groups offered.
 */
function createGroupBuffer(picker: SamplePicker, counts: { groups: number }) {
  let held: Array<{ index: number; score: number; texts: SampleTexts }> = [];
  let current: unknown;
  const end = () => {
    if (held.length > 0) {
      const scores = held.map((r) => r.score);
      for (const r of held) picker.offer(counts.groups, r.index, r.score, scores, () => r.texts);
      counts.groups += 1;
    }
    held = [];
    current = undefined;
  };
  return {
    /** One rollout of the group `key`; its place in the group when the record says, else its order. */
    add(key: unknown, score: number, texts: SampleTexts, index?: number) {
      if (key !== current) end();
      current = key;
      held.push({ index: index ?? held.length, score, texts });
    },
    end,
  };
}

/** One rollout as a stack's record gives it: its group's key, its score, its texts and its place when it says. */
export interface RolloutRecordView {
  group: unknown;
  score: number;
  texts: SampleTexts;
  index?: number;
}

/** A record longer than this is passed over (a rollout's texts are a few KB). */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/**
 * A step's samples read from its JSON-lines files (`steps` sorted; the latest when the query names none), one line at a
 * time: `rolloutOf` reads a line as a rollout, or undefined to pass it over (counted as skipped).
 */
export async function readStepSamples(
  steps: readonly number[],
  query: SampleQuery,
  filesOf: (step: number) => readonly string[],
  rolloutOf: (line: string | undefined) => RolloutRecordView | undefined,
): Promise<StepSamples | undefined> {
  if (steps.length === 0) return undefined;
  const step = query.step ?? steps.at(-1)!;
  const result: StepSamples = {
    step,
    firstStep: steps[0]!,
    lastStep: steps.at(-1)!,
    groups: 0,
    rollouts: 0,
    samples: [],
    skipped: 0,
  };
  const picker = createSamplePicker(query);
  const groups = createGroupBuffer(picker, result);
  for (const file of filesOf(step)) {
    await readLineRange(file, { start: 0, maxLineBytes: MAX_RECORD_BYTES }, (line) => {
      if (line !== undefined && line.trim() === "") return;
      const rollout = rolloutOf(line);
      if (!rollout) {
        result.skipped += 1;
        return;
      }
      result.rollouts += 1;
      groups.add(rollout.group, rollout.score, rollout.texts, rollout.index);
    });
    groups.end();
  }
  result.samples = picker.picked();
  return result;
}
