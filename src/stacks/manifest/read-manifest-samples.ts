// A manifest run's samples: the rollout files its samples path names, one step at a time ({step} in the path), each
// line a rollout with its prompt, completion and score at the manifest's key paths. Rollouts of one group are written
// together: consecutive records with the same group key (or, without one, the same prompt) are a group.
import { cutTexts, readStepSamples, scoreOf } from "../pick-samples.ts";
import type { SampleQuery, StepSamples } from "../training-stack.ts";
import { globPaths, globSource } from "./glob-paths.ts";
import { jsonRecord } from "../json-record.ts";
import { valueAt } from "./key-path.ts";
import type { StackManifest } from "./manifest-schema.ts";

const textOf = (value: unknown) =>
  value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);

/** The steps with samples, from the paths the template matches with any step. */
async function listSteps(template: string): Promise<Map<number, string[]>> {
  const re = new RegExp("^" + template.split("{step}").map(globSource).join("(\\d+)") + "$");
  const steps = new Map<number, string[]>();
  for (const file of await globPaths("/", template.replaceAll("{step}", "*"))) {
    const m = re.exec(file);
    if (!m?.[1]) continue;
    const step = Number(m[1]);
    steps.set(step, [...(steps.get(step) ?? []), file]);
  }
  return steps;
}

export async function readManifestSamples(
  spec: NonNullable<StackManifest["samples"]>,
  template: string,
  query: SampleQuery,
): Promise<StepSamples | undefined> {
  const byStep = await listSteps(template);
  const steps = [...byStep.keys()].sort((a, b) => a - b);
  return readStepSamples(
    steps,
    query,
    (step) => byStep.get(step) ?? [],
    (line) => {
      const record = jsonRecord(line);
      const score = record && scoreOf(valueAt(record, spec.score));
      if (!record || score === undefined) return undefined;
      const texts = cutTexts({
        prompt: textOf(valueAt(record, spec.prompt)),
        completion: textOf(valueAt(record, spec.completion)),
      });
      return { group: spec.group ? textOf(valueAt(record, spec.group)) : texts.prompt, score, texts };
    },
  );
}
