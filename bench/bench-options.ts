// Reads the bench's command line (--quick, --only, --markdown) into the sizes and repetition counts every measurement uses.

export interface BenchSizes {
  /** Generated environment files in the discovery folder. */
  envFiles: number;
  /** Files changed before each warm rescan. */
  changedFiles: number;
  /** Repetitions of the discovery measurements (ours and the seed's, interleaved). */
  discoveryReps: number;
  /** Repetitions of the whole-process discovery comparison (each starts a bot and a Python process). */
  processReps: number;
  /** Repetitions of the whole-process scans of the Atropos-shaped folders. */
  shapedReps: number;
  /** Repetitions of the cookbook discovery measurements (ours cold and warm, the ast oracle, the bot's loop). */
  cookbookReps: number;
  /** Repetitions of each command of the CLI start measurement. */
  cliReps: number;
  /** Repetitions of the responsiveness measurement: its stall swings by several ms from one scan to the next on two CPUs. */
  responsivenessReps: number;
  slackCommands: number;
  slackConcurrency: number;
  startupReps: number;
  digestReps: number;
  digestRuns: number;
  digestChannels: number;
  memoryReps: number;
  memoryRuns: number;
  /** How long the memory child idles before its RSS is read. */
  memoryIdleMs: number;
  /** Past runs in the history database, the channels they are in, and the repetitions of each history command. */
  historyRuns: number;
  historyChannels: number;
  historyReps: number;
}

export interface BenchOptions {
  quick: boolean;
  /** Print the latest bench/results.json as a Markdown table (for the README) and measure nothing. */
  markdown: boolean;
  /** Run only these measurements (by id prefix, e.g. --only discovery,digest); all when empty. */
  only: string[];
  sizes: BenchSizes;
}

const FULL: BenchSizes = {
  envFiles: 1000,
  changedFiles: 10,
  discoveryReps: 5,
  processReps: 3,
  shapedReps: 5,
  cookbookReps: 5,
  cliReps: 11,
  responsivenessReps: 5,
  slackCommands: 200,
  slackConcurrency: 20,
  startupReps: 3,
  digestReps: 5,
  digestRuns: 1000,
  digestChannels: 100,
  memoryReps: 3,
  memoryRuns: 1000,
  memoryIdleMs: 10_000,
  historyRuns: 100_000,
  historyChannels: 1000,
  historyReps: 7,
};

const QUICK: BenchSizes = {
  envFiles: 200,
  // The same 1% of the folder as the full run.
  changedFiles: 2,
  discoveryReps: 3,
  processReps: 2,
  shapedReps: 3,
  cookbookReps: 3,
  cliReps: 5,
  responsivenessReps: 3,
  slackCommands: 100,
  slackConcurrency: 20,
  startupReps: 2,
  digestReps: 3,
  digestRuns: 200,
  digestChannels: 20,
  memoryReps: 2,
  memoryIdleMs: 4_000,
  memoryRuns: 1000,
  historyRuns: 20_000,
  historyChannels: 200,
  historyReps: 3,
};

export function readBenchOptions(argv: readonly string[]): BenchOptions {
  const quick = argv.includes("--quick");
  const onlyAt = argv.indexOf("--only");
  const only =
    onlyAt >= 0
      ? (argv[onlyAt + 1] ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  return { quick, markdown: argv.includes("--markdown"), only, sizes: quick ? QUICK : FULL };
}
