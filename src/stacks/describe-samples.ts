// How a sampled rollout reads for people: its score beside its group's, the prompt's end and the completion's start
// where a chat message has little room, every character where it has (the console).
import type { Sample } from "./training-stack.ts";

const score = (n: number) => Number(n.toFixed(3)).toString();

/** "score 1 · group 3: 1 0 0.5 0.25". */
export function sampleHeading(sample: Sample): string {
  return `score ${score(sample.score)} · group ${sample.group}: ${sample.groupScores.map(score).join(" ")}`;
}

/** The first `max` characters, with how many more there are. */
export function cutStart(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The last `max` characters (a prompt's end is the question asked), with how many come before. */
export function cutEnd(text: string, max: number): string {
  return text.length <= max ? text : `(${text.length - max} characters before) …${text.slice(-max)}`;
}

/** One rollout as a block's text: the prompt and the completion, each cut to `max` characters when one is given. */
export function describeSample(sample: Sample, max?: number): string {
  const prompt = max === undefined ? sample.prompt : cutEnd(sample.prompt, max);
  const completion = max === undefined ? sample.completion : cutStart(sample.completion, 2 * max);
  const cut = sample.cut
    ? "\n(the reader keeps the first 100,000 characters of a text: the rest is in the run's file)"
    : "";
  return `prompt:\n${prompt || "(none recorded)"}\n\ncompletion:\n${completion || "(empty)"}${cut}`;
}

/** A short one-line view of a rollout for a digest: its score and the completion's start, on one line. */
export function sampleGist(sample: Sample, max: number): string {
  return `${score(sample.score)} "${cutStart(sample.completion.replace(/\s+/g, " ").trim(), max)}"`;
}
