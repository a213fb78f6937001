// /rl samples [run] [--step N] [--best|--worst] [--n K]: K rollouts of a step with prompt, completion, score and the
// group's scores; chat surfaces get texts cut short with the whole of them in a file beside, the console every character.
import { z } from "zod";
import { RlError } from "../src/errors.ts";
import type { ReplyBlock, ReplyFile } from "../src/reply.ts";
import { cutEnd, cutStart, describeSample, sampleHeading } from "../src/stacks/describe-samples.ts";
import type { Sample } from "../src/stacks/training-stack.ts";
import { statusLine } from "./run-reply.ts";
import { defineCommand } from "./types.ts";

const DEFAULT_N = 3;
/** Characters of a prompt's end shown in chat (twice as many of the completion's start). */
const CHAT_TEXT_CHARS = 400;

export default defineCommand({
  name: "samples",
  summary: "Show sampled rollouts of a run's step",
  description:
    "Show K rollouts of a training run's latest step (or a given step) as its environment or recipe recorded them: the prompt, the model's completion, its score and the scores of its group. --best or --worst picks the highest or lowest scored, else the first written. The texts are the model's own output, shown as inert text; in chat they are cut short (the bot's console shows them whole).",
  toolName: "rl_show_samples",
  args: z.object({
    run: z.string().min(1).max(64).optional().describe("Run id (default: this channel's latest run)"),
    step: z.number().int().min(0).optional().describe("The step (default: the latest with samples)"),
    best: z.boolean().optional().describe("The highest scored rollouts"),
    worst: z.boolean().optional().describe("The lowest scored rollouts"),
    n: z.number().int().min(1).max(10).optional().describe(`How many rollouts (default ${DEFAULT_N})`),
  }),
  positional: ["run"],
  permission: "read",
  uses: ["report"],
  async run({ run: id, step, best, worst, n }, ctx) {
    if (best && worst) throw new RlError("USAGE", "Pick --best or --worst, not both.");
    const { report } = ctx.services;
    const run = id ? report.find(id) : report.latest(ctx.channel);
    const pick = best ? "best" : worst ? "worst" : "first";
    const view = await report.samples(run, { step, pick, n: n ?? DEFAULT_N });
    const head = statusLine({ id: run.id, status: run.status, environment: run.environment });
    if (!view)
      return {
        title: `${head} · no samples yet`,
        text: "The run has written no sampled rollouts yet: they appear once its first step's groups are scored.",
        data: { run_id: run.id, samples: [] },
      };
    const whole = ctx.via === "console" || ctx.via === "cli";
    const titleOf = (s: Sample, i: number) => `#${i + 1} · ${sampleHeading(s)}`;
    const blocks: ReplyBlock[] = view.samples.map((s, i) => ({
      kind: "code",
      title: titleOf(s, i),
      content: describeSample(s, whole ? undefined : CHAT_TEXT_CHARS),
    }));
    const cut = !whole && view.samples.some((s) => describeSample(s) !== describeSample(s, CHAT_TEXT_CHARS));
    const file: ReplyFile | undefined = cut
      ? {
          name: `samples-${run.id}-step-${view.step}.txt`,
          title: `Samples of run ${run.id}, step ${view.step}, whole`,
          text: view.samples.map((s, i) => `${titleOf(s, i)}\n\n${describeSample(s)}\n`).join("\n"),
        }
      : undefined;
    const lines = [
      `Step ${view.step} (steps ${view.firstStep}–${view.lastStep} have samples): ${view.rollouts} rollouts in ${view.groups} groups; ${pick === "first" ? "the first" : `the ${pick}`} ${view.samples.length} shown.`,
    ];
    if (view.samples.length === 0)
      lines.push(
        view.step > view.lastStep ? `No step ${view.step} yet.` : "No rollouts were written for this step yet.",
      );
    if (view.note) lines.push(`Note: ${view.note}.`);
    if (view.skipped > 0) lines.push(`${view.skipped} records could not be read and were passed over.`);
    if (!whole && view.samples.length > 0)
      lines.push(
        "Texts are cut for chat; `rl samples` on the bot's console shows them whole. The completions are the model's own text, shown as written.",
      );
    if (file) lines.push(`The whole texts are in ${file.name}, beside this message.`);
    return {
      title: `${head} · samples of step ${view.step}`,
      text: lines.join("\n"),
      blocks,
      ...(file ? { file } : {}),
      // Chat's tool results and --json outside the console carry the same cut texts as the blocks.
      data: whole
        ? view
        : {
            ...view,
            samples: view.samples.map((s) => ({
              ...s,
              prompt: cutEnd(s.prompt, CHAT_TEXT_CHARS),
              completion: cutStart(s.completion, 2 * CHAT_TEXT_CHARS),
            })),
          },
    };
  },
});
