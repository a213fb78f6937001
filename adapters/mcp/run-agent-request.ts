// The bot's side of rl-chatops mcp: one agent request from the exec socket (a tool call, or the answer to its prompt),
// run as the person through the same dispatcher and chat tools as chat mode, under the same roles and confirmations.
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import type { AgentRequest, BotResponse } from "../../src/lease/ask-bot.ts";
import { redactDeep } from "../../src/redact.ts";
import type { Services } from "../../src/services.ts";
import { resultContent, runToolCall } from "../chat/run-tool-call.ts";
import { COMMANDS } from "../../commands/index.ts";
import { CONSOLE_CHANNEL } from "../console/console.ts";
import { localPerson } from "../../src/local-people.ts";

/** An agent reads more than a chat model's turn holds: a tool result's JSON is bounded at this many characters. */
export const AGENT_RESULT_CHARS = 24_000;

/** The channel an agent acts in when its server names none (`rl-chatops mcp --channel`). */
export const AGENT_CHANNEL = "mcp";

function agentContext(services: Services, request: AgentRequest, id: string): CommandContext {
  return {
    channel: { ...CONSOLE_CHANNEL, channel: request.channel ?? AGENT_CHANNEL },
    user: { id, name: id, ...(request.remote ? { remote: true } : {}) },
    via: "mcp",
    services,
  };
}

/** Runs the agent's request in the bot; the reply handed back is redacted here, the socket's output boundary. */
export async function runAgentRequest(services: Services, request: AgentRequest): Promise<BotResponse> {
  // Over stdio the machine's user running the agent (unless the settings let it name another person); over HTTP the
  // person whose bearer token the server checked, with no terminal's admin role.
  const who = request.remote
    ? { person: request.user ?? "remote" }
    : localPerson(services.config.localPeople, request.user);
  if ("refused" in who) return { ok: false, code: "FORBIDDEN", reply: {}, rendered: who.refused };
  const ctx = agentContext(services, request, who.person);
  const { redact } = services;
  if ("tool" in request) {
    // Only the registry's chat tools, by their tool names: an admin command that is no tool is not reachable here.
    const call = { id: "mcp", type: "function" as const, function: { name: request.tool, arguments: "" } };
    call.function.arguments = JSON.stringify(request.args);
    const outcome = await runToolCall(call, {
      ctx,
      commands: COMMANDS,
      maxResultChars: AGENT_RESULT_CHARS,
      ...(request.id !== undefined ? { requestId: request.id } : {}),
    });
    if (outcome.confirmation)
      return { ok: true, reply: redactDeep(outcome.confirmation, redact), rendered: "", needsConfirmation: true };
    return { ok: outcome.ok, ...(outcome.code ? { code: outcome.code } : {}), reply: {}, rendered: outcome.content };
  }
  const result = await dispatch({ confirmation: request.confirmation, answer: request.answer }, ctx);
  const content = resultContent(result, redact, AGENT_RESULT_CHARS);
  return {
    ok: content.ok,
    ...(content.code ? { code: content.code } : {}),
    reply: redactDeep(result.reply, redact),
    rendered: content.content,
  };
}
