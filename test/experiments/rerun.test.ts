// /rl rerun on the demo stack: a new run with the old run's environment and config plus changes, never the channel's.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { answer } from "../helpers/confirm.ts";
import { CONSOLE, closeDemoStacks, nextEvent, startDemo, type DemoStack } from "../helpers/demo-stack.ts";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function demo(): Promise<{ stack: DemoStack; ctx: CommandContext }> {
  const stack = await startDemo({ totalSteps: 3 });
  stacks.push(stack);
  const { services } = stack;
  await services.env.selectEnvironment(CONSOLE, "arithmetic");
  // The channel's own config differs from the old run's: a rerun must not pick it up.
  await services.env.editConfig(CONSOLE, "temperature", "1.5");
  services.runs.insert({
    id: "feed0001",
    channel: CONSOLE,
    environment: "arithmetic",
    config: { temperature: 0.7, seed: 1 },
    status: "completed",
    createdBy: "local",
  });
  return { stack, ctx: { channel: CONSOLE, user: { id: "local" }, via: "console", services } };
}

describe("/rl rerun", () => {
  it("asks with the differences, then runs the old config with the change to completion", async () => {
    const { stack, ctx } = await demo();
    const prompt = await dispatch({ text: "/rl rerun feed0001 temperature=0.3 max_operand=9" }, ctx);
    expect(prompt.needsConfirmation).toBe(true);
    expect(prompt.reply.fields).toContainEqual({
      label: "Differences",
      value: "temperature: 0.7 → 0.3, max_operand: 20 → 9",
    });
    expect(stack.services.runs.listAll(10)).toHaveLength(1);

    const completed = nextEvent(stack.services, "completed");
    const done = await answer(prompt.reply, ctx);
    expect(done.ok, done.reply.text).toBe(true);
    const id = (done.reply.data as { run_id: string; rerun_of: string }).run_id;
    expect(done.reply.data).toMatchObject({ rerun_of: "feed0001" });
    const run = stack.services.runs.get(id)!;
    expect(run.config).toEqual({ temperature: 0.3, seed: 1, max_operand: 9 });
    const written = parse(readFileSync(run.configPath!, "utf8")) as { env: Record<string, unknown> };
    expect(written.env).toMatchObject({ temperature: 0.3, seed: 1, max_operand: 9 });
    expect((await completed).run.id).toBe(id);
    expect(stack.services.channels.configValues(CONSOLE, "arithmetic")).toEqual({ temperature: 1.5 });
  });

  it("reruns unchanged when no change is given", async () => {
    const { ctx } = await demo();
    const prompt = await dispatch({ text: "/rl rerun feed0001" }, ctx);
    expect(prompt.reply.fields).toContainEqual({ label: "Differences", value: "none (the same config)" });
  });

  it.each([
    ["temperature=hot", "INVALID_VALUE", /temperature/],
    ["temprature=0.3", "NOT_FOUND", /Did you mean "temperature"/],
    ["group_size=4", "LOCKED_FIELD", /group_size is locked/],
    ["temperature", "USAGE", /field=value/],
  ])("refuses %s with a clear error and starts nothing", async (change, code, message) => {
    const { stack, ctx } = await demo();
    const reply = await dispatch({ text: `/rl rerun feed0001 ${change}` }, ctx);
    expect(reply.ok).toBe(false);
    expect(reply.reply.error?.code).toBe(code);
    expect(reply.reply.text).toMatch(message);
    expect(stack.services.runs.listAll(10)).toHaveLength(1);
  });

  it("refuses an unknown run", async () => {
    const { ctx } = await demo();
    const reply = await dispatch({ text: "/rl rerun nosuchrun" }, ctx);
    expect(reply.reply.error?.code).toBe("NOT_FOUND");
  });
});
