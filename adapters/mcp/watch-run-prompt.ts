// The "watch-run" prompt: what the person's agent is told when they ask it to watch a run. It watches and reports in
// the thread, and acts on nothing unasked (examples/agent-skill/SKILL.md, "Watching a run", says the same).
import { ErrorCode, McpError, type GetPromptResult, type Prompt } from "@modelcontextprotocol/sdk/types.js";

export const WATCH_RUN_PROMPT: Prompt = {
  name: "watch-run",
  title: "Watch a training run",
  description:
    "Watch one training run and report on it in this conversation: its status now and at each check, its errors from the log, its end. Starts, stops, restarts or resumes nothing unless you ask.",
  arguments: [
    { name: "run", description: "The run's id (see rl_list_runs or the rl://runs resource)", required: true },
    {
      name: "every",
      description: "How often to check, e.g. 30 minutes (default: each time you ask again)",
      required: false,
    },
  ],
};

const RUN = /^[A-Za-z0-9._-]{1,64}$/;
const EVERY = /^[A-Za-z0-9 .,:-]{1,40}$/;

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

/** The prompt's one message for `run`; an InvalidParams error saying what to give when an argument is missing or bad. */
export function watchRunPrompt(args: Record<string, string> | undefined): GetPromptResult {
  const run = args?.run?.trim() ?? "";
  if (!RUN.test(run))
    throw invalid(
      run === ""
        ? 'watch-run needs the run\'s id: give "run" (rl_list_runs or the rl://runs resource lists them).'
        : `watch-run's "run" is a run id of 1 to 64 letters, digits, . _ or -; got "${run.slice(0, 80)}".`,
    );
  const every = args?.every?.trim();
  if (every !== undefined && every !== "" && !EVERY.test(every))
    throw invalid(`watch-run's "every" is how often to check, like "30 minutes"; got "${every.slice(0, 80)}".`);
  const when = every ? `every ${every}` : "each time I ask again";
  const text = [
    `Watch training run ${run} for me and report on it here. You only watch: do not start, stop, rerun, sweep, resume or fork anything unless I ask for exactly that in this conversation, and never restart or resume this run if it fails.`,
    "",
    `1. Check it now with rl_check_status (run "${run}"), or by reading rl://runs/${run}/status. Tell me in a few lines: its status, step of total, reward mean, and the WandB link when there is one.`,
    `2. Check again ${when}, once per check; do not poll in a loop. Say what changed since the last check.`,
    `3. If it shows step errors, or it failed or was lost: read its log (rl_get_logs, or rl://runs/${run}/logs) and rl_get_results, tell me what went wrong with the lines that show it, and stop there. I decide what happens next.`,
    `4. When it has completed or was stopped: report its final reward and where its results and logs are (/rl results ${run}, /rl logs ${run}), and stop watching.`,
    "",
    "Quote numbers from the tool results, not from memory. If a tool refuses you, that is the answer: tell me, and do not work around it.",
  ].join("\n");
  return {
    description: `Watch run ${run} and report on it, acting on nothing unasked`,
    messages: [{ role: "user", content: { type: "text", text } }],
  };
}
