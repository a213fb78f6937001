// The boundary between the core and a training stack: what a run's processes are, how each starts, is judged ready
// and ends, how a run's config is written and where its progress is read. The core knows no stack beyond this.
import type { ConfigValues } from "../../db/channels.ts";
import type { RunPatch, RunRow } from "../../db/runs.ts";
import type { TrainerProgress } from "../metrics/trainer-log.ts";
import type { StackName } from "../config.ts";
import type { ConfigField } from "../environments/types.ts";
import type { CommandHelp } from "../process/check-spawn-plan.ts";
import type { SpawnPlan } from "../process/supervised-process.ts";
import type { ConfigView } from "../values/config-view-types.ts";
import type { ApiStatus } from "./api-status.ts";

export type StackId = StackName;

/** When a just-started process counts as ready (the local backend and the Slurm job launcher both read this). */
export type ReadyCheck =
  /** It answers GET url with a 2xx status. */
  | { kind: "http"; url: string }
  /** The status URL (a trajectory API's /status) shows data, or the process stayed alive for settleMs. */
  | { kind: "traffic"; statusUrl: string; settleMs: number }
  /**
   * The process wrote this file of the run's own folder (`runFile`, relative to it) since it was started, or stayed
   * alive for settleMs: a recipe writes its config there once it has read its arguments and set up its logging.
   */
  | { kind: "written"; runFile: string; settleMs: number }
  /** It stayed alive for settleMs. */
  | { kind: "settle"; settleMs: number };

export interface StackComponent {
  /** Its name in the database, in logs and in `/rl logs <run> <component>`. */
  name: string;
  /** How people call it: "trajectory API", "trainer", "environment". */
  title: string;
  /** A port it listens on, checked free before it is started. */
  port?: number;
  ready: ReadyCheck;
  /** It may end cleanly before the run does (an environment whose steps are done): the run waits for the rest. */
  mayFinishFirst?: boolean;
  /** What its command is and how a person installs or changes it. */
  help: CommandHelp;
}

/** A saved checkpoint of a run, the same on every stack. */
export interface Checkpoint {
  /** What the stack calls it: "000020", "final", "step_12". */
  name: string;
  /** Steps done when it was saved. */
  step: number;
  /** When it was saved (ISO 8601), where the stack's records tell. */
  time?: string;
  /** The weights to resume or fork from: the full training state where the stack saves one, else the sampler weights. */
  path: string;
  /** The weights for sampling, where the stack saves them apart. */
  samplerPath?: string;
  /** The run's last checkpoint, saved at its end. */
  final?: boolean;
}

/** Which rollouts of a step a samples query wants: in the order written, or the best or worst scored. */
export interface SampleQuery {
  /** The step (absent: the latest with samples). */
  step?: number;
  pick: "first" | "best" | "worst";
  n: number;
}

/** One rollout of a step, as the stack recorded it. */
export interface Sample {
  /** Its group's place in the step and its own in the group (both from 0). */
  group: number;
  index: number;
  score: number;
  /** The scores of its whole group, itself included. */
  groupScores: number[];
  prompt: string;
  completion: string;
  /** The prompt or completion was longer than the reader keeps and is cut there. */
  cut?: boolean;
}

/** What a step's samples are, bounded: the rollouts the query picked and counts of the rest. */
export interface StepSamples {
  step: number;
  /** The first and the latest step with samples. */
  firstStep: number;
  lastStep: number;
  /** Groups and rollouts read in the step. */
  groups: number;
  rollouts: number;
  samples: Sample[];
  /** Records passed over: too long to read, or not the stack's format. */
  skipped: number;
  /** How the step was told (a file that writes no step number), for people. */
  note?: string;
}

/** A run's config as written for its stack, and what the run row records of it. */
export type PreparedRun = Pick<RunPatch, "configPath" | "totalSteps" | "wandbProject" | "wandbGroup" | "wandbRunName">;

/** What a stack says of values it cannot start a run with together: a refusal (with facts for the reply), or a warning. */
export type CombinationVerdict = { refusal: string; details?: Record<string, unknown> } | { warning: string };

/** The settings of a stack's trainer, shown and set beside every unit's own fields (atropos-tinker's `tinker:`). */
export interface TrainerSettings {
  /** What their names start with ("tinker."), so they never meet a unit's field of the same name. */
  prefix: string;
  /** The fields as shown and set, each locked where the locked fields file sets it. */
  fields(): Promise<ConfigField[]>;
}

export interface TrainingStack {
  id: StackId;
  /** "Atropos environments with tinker-atropos". */
  title: string;
  /** What a runnable unit is called: "environment", "recipe". */
  unitName: string;
  /** The processes of a run, in start order. */
  components: readonly StackComponent[];
  /** The process whose clean exit ends the run, judged by its progress. */
  main: string;
  /** The order a run's processes are stopped in. */
  stopOrder: readonly string[];
  /** Writes the run's config (refusing secrets in it) and names its WandB run. */
  prepare(runId: string, environment: string, values: ConfigValues): PreparedRun;
  /**
   * How many training steps a run with these values will take (every field's value: defaults, changes and locked
   * ones), for budgets and confirmations; undefined when the config does not say.
   */
  stepsOf(values: Readonly<Record<string, unknown>>): number | undefined;
  /**
   * Judges values each valid alone that the stack cannot start a run with together (atropos-tinker: a group_size over
   * the batch size in use), for /rl set, rerun and sweep. changed names the fields the change sets; view gives the config
   * it leaves, read only when the rule concerns one of them. Undefined when the stack has no such rule.
   */
  checkCombination?(
    changed: readonly string[],
    view: () => Promise<ConfigView>,
  ): Promise<CombinationVerdict | undefined>;
  /** The trainer's own settings, when the stack shows them beside a unit's fields. */
  trainer?: TrainerSettings;
  /** How one component of the run is started (local and Slurm alike). */
  plan(run: RunRow, component: string): Promise<SpawnPlan>;
  /** The run's progress so far: steps, reward, loss, step errors, whether it says it finished. */
  readProgress(run: RunRow): Promise<TrainerProgress>;
  /** The run's checkpoints, oldest first, as the stack records them. */
  readCheckpoints(run: RunRow): Promise<Checkpoint[]>;
  /**
   * When the run's main process last wrote its log or records (ms since the epoch), undefined without any: when a run
   * that ended while no bot watched it ended, rather than when a bot came back to find it.
   */
  lastWrite(run: RunRow): Promise<number | undefined>;
  /**
   * The rollouts of a step as the run's processes wrote them (undefined: none written yet). Read incrementally and
   * bounded: what is kept between calls is an index of where steps start, never the rollouts.
   */
  readSamples(run: RunRow, query: SampleQuery): Promise<StepSamples | undefined>;
  /**
   * What the bot can tell is wrong with a checkpoint before a trainer is handed it (a marker file unreadable, or not
   * the JSON it must be), or undefined; absent where the stack lets the bot check nothing.
   */
  checkCheckpoint?(checkpoint: Checkpoint): Promise<string | undefined>;
  /** Whether a stopped or failed run of this stack can continue from its last checkpoint. */
  canResume: boolean;
  /** Why it can or cannot, for people: "tinker-atropos's trainer always starts at step 0". */
  resumeNote: string;
  /** The config field that starts a new run from a checkpoint's weights (a fork), when the stack has one. */
  forkField?: string;
  /** Lines of the main log that mean a step failed although the process exits 0 (atropos-tinker's trainer). */
  stepErrorPattern?: string;
  /** A live run's trajectory API status, when the stack has one. */
  apiStatus?(): Promise<ApiStatus | undefined>;
}

/**
 * The main process is the last to start (a one-process stack such as a cookbook recipe): a clean exit before its
 * readiness check passed is a short run that already finished, judged by its progress once the run is running.
 */
export const mainStartsLast = (stack: TrainingStack, component: string): boolean =>
  component === stack.main && stack.components.at(-1)?.name === component;

export function componentOf(stack: TrainingStack, name: string): StackComponent {
  const found = stack.components.find((c) => c.name === name);
  if (!found) throw new Error(`the ${stack.id} stack has no ${name} process`);
  return found;
}
