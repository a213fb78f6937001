// The MCP server a person's own agent talks to: the registry's tools, each call handed to the bot that owns the data
// folder as that person, with confirmations asked through the client, the channel's runs as resources read the
// same way, and a prompt to watch a run. One server per client connection.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { AnyCommand } from "../../commands/types.ts";
import { listAgentResources, readAgentResource, RESOURCE_TEMPLATES } from "./agent-resources.ts";
import { agentTools } from "./agent-tools.ts";
import { callAgentTool, errorResult, type AgentToolDeps } from "./call-agent-tool.ts";
import { canElicit, elicitConfirmation } from "./elicit-confirmation.ts";
import { WATCH_RUN_PROMPT, watchRunPrompt } from "./watch-run-prompt.ts";

export interface AgentServerOptions extends Pick<AgentToolDeps, "ask" | "confirmElsewhere"> {
  commands: readonly AnyCommand[];
  version: string;
}

const INSTRUCTIONS =
  "Operates reinforcement-learning training runs for the person, under their team's rules (roles, confirmations, approvals, budgets). Check status before acting; never start, stop, resume or rerun a run unless the person asked; starts and stops ask the person to confirm.";

export function createAgentServer(options: AgentServerOptions): Server {
  const server = new Server(
    { name: "rl-chatops", title: "rl-chatops training runs", version: options.version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const tools = agentTools(options.commands);
  const names = new Set(tools.map((t) => t.name));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    if (!names.has(name))
      return errorResult("UNKNOWN_TOOL", `There is no tool named "${name.slice(0, 100)}". See tools/list.`);
    const elicit = canElicit(server) ? elicitConfirmation.bind(undefined, server) : undefined;
    return callAgentTool({ ask: options.ask, confirmElsewhere: options.confirmElsewhere, elicit }, name, args);
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    listAgentResources(options.ask, request.params?.cursor),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readAgentResource(options.ask, request.params.uri));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [WATCH_RUN_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== WATCH_RUN_PROMPT.name)
      throw new McpError(
        ErrorCode.InvalidParams,
        `There is no prompt named "${request.params.name.slice(0, 100)}"; the one prompt is ${WATCH_RUN_PROMPT.name}.`,
      );
    return watchRunPrompt(request.params.arguments);
  });
  return server;
}
