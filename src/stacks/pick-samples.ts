// Keeps the rollouts a samples query wants while a step's records stream past: at most n of them, texts cut to a
// bound, so a step of any size is read in the same memory.
import type { Sample, SampleQuery } from "./training-stack.ts";

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
