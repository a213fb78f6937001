// The channel's runs as MCP resources: rl://runs lists them, and each run's status, logs and samples are read through
// URI templates. Every read is the matching read tool (rl_list_runs, rl_check_status, rl_get_logs, rl_show_samples)
// handed to the bot like a tool call, so the person's permissions and the errors are exactly the /rl commands'.
import {
  ErrorCode,
  McpError,
  type ListResourcesResult,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import type { BotResponse } from "../../src/lease/ask-bot.ts";
import type { AgentCall } from "./call-agent-tool.ts";

/** The channel's runs, newest first. */
export const RUNS_URI = "rl://runs";

/** The MCP spec's error code for a resource that does not exist (the SDK's ErrorCode has no name for it). */
export const RESOURCE_NOT_FOUND = -32002;

/** Runs listed per page of resources/list (its cursor is the page number); a page stays within a tool result's bound. */
const RUNS_PER_PAGE = 50;

const JSON_TYPE = "application/json";

/** A run's readable views: the read tool each stands for, and how it is described to the agent. */
const VIEWS = {
  status: {
    tool: "rl_check_status",
    title: "Run status",
    description:
      "A run's live status: processes, step of total, reward, loss, running time, WandB link (rl_check_status).",
  },
  logs: {
    tool: "rl_get_logs",
    title: "Run log",
    description: "The last 30 lines of a run's main process log, redacted (rl_get_logs).",
  },
  samples: {
    tool: "rl_show_samples",
    title: "Run samples",
    description:
      "Sampled rollouts of a run's latest step: prompt, completion, score and the group's scores (rl_show_samples).",
  },
} as const;

type View = keyof typeof VIEWS;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  ...(Object.keys(VIEWS) as View[]).map((view) => ({
    uriTemplate: `rl://runs/{run}/${view}`,
    name: `run-${view}`,
    title: VIEWS[view].title,
    description: VIEWS[view].description,
    mimeType: JSON_TYPE,
  })),
  {
    uriTemplate: "rl://runs/{run}/logs/{component}",
    name: "run-component-logs",
    title: "Run log of one process",
    description: "The last 30 lines of one process log of a run: trainer, env or api, as its stack names them.",
    mimeType: JSON_TYPE,
  },
];

const RUNS_RESOURCE: Resource = {
  uri: RUNS_URI,
  name: "runs",
  title: "Runs in this channel",
  description: "The channel's training runs, newest first: id, environment, status, who started it and when.",
  mimeType: JSON_TYPE,
};

const URI = /^rl:\/\/runs(?:\/([^/?#]+)\/(status|logs|samples)(?:\/([^/?#]+))?)?\/?$/;
const SEGMENT = /^[A-Za-z0-9._-]{1,64}$/;

function invalid(uri: string, why: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `${JSON.stringify(uri.slice(0, 200))} ${why}. The resources are ${RUNS_URI} and ${RESOURCE_TEMPLATES.map((t) => t.uriTemplate).join(", ")}; see resources/templates/list.`,
    { uri: uri.slice(0, 200) },
  );
}

function segment(uri: string, raw: string, what: string): string {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw invalid(uri, `has a ${what} that is not valid percent-encoding`);
  }
  if (!SEGMENT.test(value)) throw invalid(uri, `has a ${what} other than 1 to 64 letters, digits, . _ or -`);
  return value;
}

/** The read tool call a resource's URI stands for; an InvalidParams error naming what is wrong otherwise. */
export function toolCallOf(uri: string): { tool: string; args: Record<string, unknown> } {
  const match = URI.exec(uri);
  if (!match) throw invalid(uri, "is no resource of this server");
  const [, rawRun, view, rawComponent] = match;
  if (rawRun === undefined) return { tool: "rl_list_runs", args: {} };
  const run = segment(uri, rawRun, "run id");
  if (rawComponent !== undefined && view !== "logs") throw invalid(uri, `has a part after /${view}`);
  const args: Record<string, unknown> = { run };
  if (rawComponent !== undefined) args.component = segment(uri, rawComponent, "process name");
  return { tool: VIEWS[view as View].tool, args };
}

/** The bot's refusal as the JSON-RPC error of resources/read, with the bot's own message (what to do). */
function readError(uri: string, response: BotResponse): McpError {
  let message = response.rendered;
  try {
    const body = JSON.parse(response.rendered) as { error?: { message?: string } };
    message = body.error?.message ?? message;
  } catch {
    // Not JSON: the text as it is.
  }
  const code = response.code ?? "INTERNAL";
  const jsonRpc =
    code === "NOT_FOUND"
      ? RESOURCE_NOT_FOUND
      : ["USAGE", "INVALID_VALUE", "INVALID_ARGUMENTS"].includes(code)
        ? ErrorCode.InvalidParams
        : code === "INTERNAL"
          ? ErrorCode.InternalError
          : ErrorCode.InvalidRequest;
  return new McpError(jsonRpc, message, { uri, code });
}

type Ask = (call: AgentCall) => Promise<BotResponse>;

async function askOrFail(ask: Ask, uri: string, call: AgentCall): Promise<BotResponse> {
  let response: BotResponse;
  try {
    response = await ask(call);
  } catch (err) {
    throw new McpError(ErrorCode.InternalError, err instanceof Error ? err.message : String(err), { uri });
  }
  if (!response.ok) throw readError(uri, response);
  return response;
}

/** resources/read: the read tool's JSON, as the agent would get it from the tool. */
export async function readAgentResource(ask: Ask, uri: string): Promise<ReadResourceResult> {
  const response = await askOrFail(ask, uri, toolCallOf(uri));
  return { contents: [{ uri, mimeType: JSON_TYPE, text: response.rendered }] };
}

interface ListedRun {
  run_id: string;
  environment: string;
  status: string;
  created_by: string;
}

interface RunsPage {
  /** A long list comes as columns and rows (a tool result shrunk to its bound). */
  runs: ListedRun[] | { columns: string[]; rows: unknown[][] };
  page: number;
  pages: number;
}

function runsOf({ runs }: RunsPage): ListedRun[] {
  if (Array.isArray(runs)) return runs;
  return runs.rows.map((row) => Object.fromEntries(runs.columns.map((c, i) => [c, row[i]])) as unknown as ListedRun);
}

/** resources/list: rl://runs, then each of the channel's runs' status, a page of runs per cursor. */
export async function listAgentResources(ask: Ask, cursor: string | undefined): Promise<ListResourcesResult> {
  const page = cursor === undefined ? 1 : Number(cursor);
  if (!Number.isInteger(page) || page < 1)
    throw new McpError(
      ErrorCode.InvalidParams,
      `The cursor "${String(cursor).slice(0, 40)}" is not one this server gave.`,
    );
  const response = await askOrFail(ask, RUNS_URI, {
    tool: "rl_list_runs",
    args: { limit: RUNS_PER_PAGE, page },
  });
  const listed = JSON.parse(response.rendered) as RunsPage;
  const runs: Resource[] = runsOf(listed).map((run) => ({
    uri: `rl://runs/${run.run_id}/status`,
    name: `run-${run.run_id}-status`,
    title: `Run ${run.run_id}: ${run.environment} · ${run.status}`,
    description: `Status of run ${run.run_id} (${run.environment}, ${run.status}, started by ${run.created_by}); its logs and samples are at rl://runs/${run.run_id}/logs and /samples.`,
    mimeType: JSON_TYPE,
  }));
  return {
    resources: page === 1 ? [RUNS_RESOURCE, ...runs] : runs,
    ...(listed.page < listed.pages ? { nextCursor: String(listed.page + 1) } : {}),
  };
}
