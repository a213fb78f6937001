// The answer to a plain-language message when no language model is configured (or the message is empty): the /rl commands.
import { usageOf } from "../../commands/arg-specs.ts";
import type { AnyCommand } from "../../commands/types.ts";
import type { Reply } from "../../src/reply.ts";

export function chatHelpReply(commands: readonly AnyCommand[], reason: "no-llm" | "empty"): Reply {
  const intro =
    reason === "no-llm"
      ? "Plain-language requests are not switched on here (the bot's operator can set LLM_BASE_URL and LLM_MODEL). These /rl commands do it all:"
      : 'Ask me in plain words ("which environments are there?", "set group_size to 8"), or use one of these /rl commands:';
  const width = Math.min(44, Math.max(...commands.map((c) => usageOf(c).length)));
  return {
    text: intro,
    blocks: [{ kind: "code", content: commands.map((c) => `${usageOf(c).padEnd(width)}  ${c.summary}`).join("\n") }],
    data: {
      chat: reason === "no-llm" ? "not_configured" : "empty_message",
      commands: commands.map((c) => ({ name: c.name, usage: usageOf(c), summary: c.summary })),
    },
  };
}
