import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { argsJsonSchema } from "../../commands/arg-specs.ts";
import { COMMANDS } from "../../commands/index.ts";
import { defineCommand } from "../../commands/types.ts";
import { buildTools } from "../../adapters/chat/build-tools.ts";
import { startChatHarness, type ChatHarness } from "./chat-harness.ts";

/** The seed tool's operations that this bot implements, by their seed names. */
const SEED_TOOLS = [
  "rl_list_environments",
  "rl_select_environment",
  "rl_get_current_config",
  "rl_edit_config",
  "rl_start_training",
  "rl_check_status",
  "rl_stop_training",
  "rl_get_results",
  "rl_list_runs",
];

let harness: ChatHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("tools from the command registry", () => {
  it("makes one function tool per command with a toolName, named as in the seed, described and typed by the command", () => {
    const tools = buildTools(COMMANDS);
    const withTool = COMMANDS.filter((c) => c.toolName);
    expect(tools.map((t) => t.function.name)).toEqual(withTool.map((c) => c.toolName));
    expect(tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(SEED_TOOLS));
    expect(tools.map((t) => t.function.name)).not.toContain(undefined);
    for (const [i, tool] of tools.entries()) {
      const command = withTool[i]!;
      expect(tool.type).toBe("function");
      expect(tool.function.description).toBe(command.description);
      // The command's own JSON Schema, minus the "$schema" meta key that Gemini endpoints refuse.
      const { $schema, ...schema } = argsJsonSchema(command);
      expect($schema).toBeDefined();
      expect(tool.function.parameters).toEqual(schema);
    }
    const select = tools.find((t) => t.function.name === "rl_select_environment")!;
    expect(select.function.parameters).toEqual({
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 200, description: "Environment name, from /rl envs" },
      },
      required: ["name"],
    });
    const logs = tools.find((t) => t.function.name === "rl_get_logs")!;
    expect(logs.function.parameters).toMatchObject({
      properties: { component: { enum: ["trainer", "env", "api"] }, lines: { type: "integer", maximum: 200 } },
    });
  });

  it("leaves commands without a toolName (help) out", () => {
    expect(buildTools(COMMANDS).some((t) => t.function.name.includes("help"))).toBe(false);
  });

  it("refuses a registry with a duplicate or invalid tool name when the handler is built, not on every request", () => {
    const twin = defineCommand({
      name: "twin",
      summary: "t",
      description: "t",
      toolName: "rl_list_runs",
      args: z.object({}),
      permission: "read",
      uses: [],
      run: async () => ({}),
    });
    expect(() => buildTools([...COMMANDS, twin])).toThrow(/used twice/);
    const spaced = defineCommand({
      name: "spaced",
      summary: "s",
      description: "s",
      toolName: "rl list",
      args: z.object({}),
      permission: "read",
      uses: [],
      run: async () => ({}),
    });
    expect(() => buildTools([spaced])).toThrow(/must match/);
  });

  it("sends the same tools, with tool_choice auto, on every request", async () => {
    // An admin is offered every tool (others only those their role allows: test/chat/bounds.test.ts).
    harness = await startChatHarness({ env: { RL_ADMINS: "slack:U1" } });
    harness.fake.script({ toolCalls: [{ name: "rl_list_environments" }] }, { text: "There are three." });
    await harness.chat("what environments are there?", harness.ctx());
    expect(harness.fake.requests).toHaveLength(2);
    for (const request of harness.fake.requests) {
      expect(request.body.model).toBe("fake-org/fake-model");
      expect(request.body.tool_choice).toBe("auto");
      expect(request.body.tools).toEqual(buildTools(COMMANDS));
    }
  });
});
