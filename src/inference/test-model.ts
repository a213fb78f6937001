// One model's part of an inference test: run its child, decide how it ended, read the groups it wrote, count.
import path from "node:path";
import type { EnvironmentInfo } from "../environments/types.ts";
import { readTailLines } from "../metrics/log-tail.ts";
import { readProcessOutput, type ParsedOutput } from "./parse-process-output.ts";
import type { InferenceTestPlan } from "./plan-inference-test.ts";
import { buildProcessArgv, buildProcessEnv, writeKeyFromEnvironmentConfig } from "./process-mode-command.ts";
import { resolveOutputFile, stampOf } from "./resolve-output-file.ts";
import { runChild, type ChildExit } from "./run-child.ts";
import { modelStats } from "./summarize.ts";
import type { InferenceTestDeps, ModelOutcome, ModelResult } from "./types.ts";

export interface ModelRun {
  deps: InferenceTestDeps;
  plan: InferenceTestPlan;
  environment: Pick<EnvironmentInfo, "name" | "filePath">;
  /** This test's own folder: output files and logs of every model. */
  dir: string;
  id: string;
  now: () => number;
}

const STDERR_TAIL_LINES = 25;
const STDERR_TAIL_CHARS = 2_000;

/** A file name for a model id: its position keeps "a/b" and "a_b" apart. */
export function fileStem(index: number, model: string): string {
  return `${String(index + 1).padStart(2, "0")}-${model.replace(/[^\w.-]+/g, "_").slice(0, 80)}`;
}

function outcomeOf(exit: ChildExit, timeoutMs: number): { outcome: ModelOutcome; error?: string } {
  if (exit.spawnError !== undefined) return { outcome: "crashed", error: `could not start: ${exit.spawnError}` };
  if (exit.timedOut)
    return {
      outcome: "timeout",
      error: `timed out after ${Math.round(timeoutMs / 1000)} s; its process group was killed (RL_TEST_TIMEOUT_SECONDS)`,
    };
  if (exit.signal) return { outcome: "crashed", error: `killed by ${exit.signal}` };
  if (exit.exitCode !== 0) return { outcome: "crashed", error: `exited with code ${exit.exitCode ?? "?"}` };
  return { outcome: "ok" };
}

export async function testModel(run: ModelRun, model: string, index: number): Promise<ModelResult> {
  const { deps, plan, environment, dir, id, now } = run;
  const stem = fileStem(index, model);
  const planned = path.join(dir, `${stem}.jsonl`);
  const stdoutPath = path.join(dir, `${stem}.out.log`);
  const stderrPath = path.join(dir, `${stem}.err.log`);
  const before = stampOf(planned);
  let configFile: string | undefined;
  if (plan.apiKey) {
    configFile = path.join(dir, `${stem}.yaml`);
    writeKeyFromEnvironmentConfig(configFile);
  }
  const { command, args } = buildProcessArgv({
    python: deps.config.python,
    envFile: environment.filePath,
    steps: plan.steps,
    groupSize: plan.groupSize,
    outputFile: planned,
    baseUrl: plan.baseUrl,
    model,
    configFile,
  });
  const argv = [command, ...args];
  const exit = await runChild({
    command,
    args,
    cwd: deps.config.trainingRoot,
    env: buildProcessEnv(deps.processEnv ?? process.env, deps.config.trainingRoot, plan.apiKey),
    stdoutPath,
    stderrPath,
    timeoutMs: plan.timeoutMs,
    killGraceMs: deps.killGraceMs,
    now,
    onSpawn: (pid) => deps.onSpawn?.({ model, pid, command: argv }),
  });
  let { outcome, error } = outcomeOf(exit, plan.timeoutMs);
  let parsed: ParsedOutput = { steps: [], malformedLines: 0 };
  let outputFile: string | undefined;
  if (exit.spawnError === undefined) {
    // A crashed or timed-out child may still have written some groups: they are counted, and its error stays.
    const found = await resolveOutputFile({
      planned,
      before,
      stdoutPath,
      cwd: deps.config.trainingRoot,
      startedAt: exit.startedAt,
    });
    if ("file" in found) {
      outputFile = found.file;
      parsed = await readProcessOutput(found.file, plan.correctThreshold);
    } else if (outcome === "ok") {
      outcome = "no_output";
      error = found.error;
    }
  }
  if (outcome === "ok" && parsed.steps.length === 0)
    error = "the environment finished but wrote no scored groups; see its log";
  const tail =
    outcome === "ok" && parsed.steps.length > 0
      ? ""
      : (await readTailLines(stderrPath, STDERR_TAIL_LINES)).join("\n").slice(-STDERR_TAIL_CHARS);
  const result: ModelResult = {
    model,
    outcome,
    steps_requested: plan.steps,
    ...modelStats(parsed.steps),
    steps: parsed.steps,
    malformed_lines: parsed.malformedLines,
    ...(exit.exitCode !== undefined ? { exit_code: exit.exitCode } : {}),
    ...(exit.signal ? { signal: exit.signal } : {}),
    ...(error ? { error: deps.redact(error) } : {}),
    ...(tail ? { stderr_tail: deps.redact(tail) } : {}),
    ...(outputFile ? { output_file: outputFile } : {}),
    command: argv.map(deps.redact),
    duration_ms: exit.durationMs,
  };
  deps.log.info("inference test model done", {
    id,
    model,
    outcome,
    correct: result.correct,
    completions: result.completions,
  });
  return result;
}
