// Asks the person, through their MCP client (elicitation), to confirm what a tool call would do: the same facts as the
// chat prompt (what starts, steps, budget left), answered accept, decline or cancel.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Reply } from "../../src/reply.ts";
import { renderText } from "../render-text.ts";
import type { ElicitAnswer } from "./call-agent-tool.ts";

/** Whether the client declared that it can show the person a form (MCP elicitation). */
export function canElicit(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation?.form !== undefined;
}

/** The person's answer; an accept whose "confirm" box was unticked is a decline. */
export async function elicitConfirmation(server: Server, prompt: Reply, command: string): Promise<ElicitAnswer> {
  // The facts, without the chat prompt's buttons: the client shows its own accept and decline.
  const facts = renderText({ ...prompt, buttons: undefined });
  const result = await server.elicitInput({
    mode: "form",
    message: `Your agent asks to run ${command}; it runs only if you accept.\n${facts}`,
    requestedSchema: {
      type: "object",
      properties: { confirm: { type: "boolean", title: `Run ${command}`, default: true } },
    },
  });
  if (result.action === "accept" && result.content?.confirm === false) return "decline";
  return result.action;
}
