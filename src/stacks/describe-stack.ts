// How people are told about a stack's processes: "the trajectory API, the trainer and the environment", "all three".
import type { TrainingStack } from "./training-stack.ts";

const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six"];

/** "the trajectory API, the trainer and the environment" */
export function componentList(stack: Pick<TrainingStack, "components">): string {
  const names = stack.components.map((c) => `the ${c.title}`);
  return names.length <= 1 ? (names[0] ?? "nothing") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** What a run that just reached "running" says about its processes. */
export function allUpText(stack: Pick<TrainingStack, "components">): string {
  const n = stack.components.length;
  return n === 1 ? `The ${stack.components[0]!.title} is running.` : `All ${NUMBER_WORDS[n] ?? n} processes are up.`;
}
