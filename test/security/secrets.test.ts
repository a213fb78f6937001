// A secret put into every input path never comes out: replies, JSON, logs, audit rows, run configs, outbox rows, posts, the LLM.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch, type CommandInput } from "../../commands/dispatch.ts";
import { createChatHandler } from "../../adapters/chat/create-chat-handler.ts";
import { DEMO_STACK_ROOT } from "../../src/config.ts";
import { redactDeep } from "../../src/redact.ts";
import type { Reply } from "../../src/reply.ts";
import { startFakeLlm, type FakeLlm } from "../fakes/llm-server.ts";
import { dispatchConfirmed } from "../helpers/confirm.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";
import { USERS, probeEnvSource, startKit, type Kit } from "./security-kit.ts";

const WANDB = "wandb-key-7f3a9c2e1b4d5f6a8c9e0d1b2a3c4e5f";
const TINKER = "tml-key-0a1b2c3d4e5f60718293a4b5c6d7e8f9";
const LLM = "sk-llm-key-5d6e7f8091a2b3c4d5e6f708192a3b4c";
const SLACK_TOKEN = "xoxb-1111-2222-secretbottokenvalue";
const SECRETS = [WANDB, TINKER, LLM, SLACK_TOKEN];
/** The forms a key travels in: raw, in a Basic header, percent-encoded. */
const FORMS = SECRETS.flatMap((s) => [
  s,
  Buffer.from(`api:${s}`).toString("base64"),
  Buffer.from(s).toString("base64"),
]);

let kit: Kit;
let llm: FakeLlm;
let wandb: Server;
const replies: Array<{ what: string; reply: Reply }> = [];
const posted: Reply[] = [];

/** A stand-in for WandB that fails every query, quoting the key it was sent and the Authorization header. */
async function startEchoingWandb(): Promise<Server> {
  const server = createServer((req, res) => {
    const auth = req.headers.authorization ?? "";
    req.resume();
    req.on("end", () => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          errors: [{ message: `invalid key ${WANDB} in header ${auth} (${Buffer.from(WANDB).toString("base64")})` }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** A trainer that prints its whole environment (keys included), reports a step error quoting a key, and fails. */
function echoingTrainer(dir: string): string {
  const file = path.join(dir, "echo_trainer.py");
  writeFileSync(
    file,
    [
      "import os, sys",
      "for k, v in sorted(os.environ.items()):",
      "    print(f'{k}={v}')",
      "print('Error in step 1: upstream rejected key ' + os.environ.get('WANDB_API_KEY', '?') + ' and ' + os.environ.get('TINKER_API_KEY', '?'), flush=True)",
      "sys.stderr.write('Traceback: auth failed for ' + os.environ.get('TINKER_API_KEY', '?') + '\\n')",
      "sys.exit(1)",
    ].join("\n"),
  );
  return file;
}

async function run(
  what: string,
  input: CommandInput,
  options: { user?: string; confirmed?: boolean; via?: "slash" | "chat" | "button" } = {},
): Promise<Reply> {
  const ctx = kit.ctx(options.user ?? USERS.admin, { via: options.via ?? "slash" });
  // Confirmed the way a person does it on a platform: the prompt, then a click on its Confirm.
  const result = options.confirmed ? await dispatchConfirmed(input, ctx) : await dispatch(input, ctx);
  // The reply as it leaves the bot: every exit (the adapters as they render, the LLM's tool results, the command
  // line's output) redacts it once; the dispatcher itself does not (test/adapters/redact-once.test.ts).
  const sent = redactDeep(result.reply, kit.services.redact);
  replies.push({ what, reply: sent });
  return sent;
}

function leaks(text: string): string[] {
  return FORMS.filter((form) => text.includes(form));
}

beforeAll(async () => {
  wandb = await startEchoingWandb();
  llm = await startFakeLlm({ apiKey: LLM });
  const dir = tempDir("rl-sec-secrets-");
  kit = startKit({
    env: {
      RL_ADMINS: `slack:${USERS.admin}`,
      RL_TRAINING_ROOT: DEMO_STACK_ROOT,
      RL_LOCKED_FIELDS: await demoLockedFields(dir),
      RL_TRAINER_COMMAND: `python3 ${echoingTrainer(dir)}`,
      RL_READY_TIMEOUT_SECONDS: "30",
      RL_STOP_GRACE_SECONDS: "2",
      WANDB_API_KEY: WANDB,
      WANDB_BASE_URL: `http://127.0.0.1:${(wandb.address() as AddressInfo).port}`,
      TINKER_API_KEY: TINKER,
      SLACK_BOT_TOKEN: SLACK_TOKEN,
      LLM_BASE_URL: llm.baseUrl,
      LLM_API_KEY: LLM,
      LLM_MODEL: "fake/model",
    },
    // An environment file with a key in its docstring and in a field's default.
    envFiles: {
      "probe_env.py": probeEnvSource({ docstring: `Probe. Token: ${SLACK_TOKEN}`, labelDefault: `k-${TINKER}` }),
    },
  });
  kit.services.outboxSender.register("slack", async (_target, reply) => {
    posted.push(reply);
    return { id: String(posted.length) };
  });
});

afterAll(async () => {
  for (const r of kit.services.runs.listByStatus(["queued", "starting", "running"]))
    await kit.services.manager.stop(r.id, "cleanup").catch(() => undefined);
  await kit.close();
  await llm.close();
  await new Promise((resolve) => wandb.close(resolve));
});

describe("secrets in every input path", () => {
  it("command text and config values: a value holding a key is refused before it is stored, redacted everywhere else", async () => {
    await run("select", { text: "/rl select probe" });
    for (const [what, input, via] of [
      ["set typed", { text: `/rl set label see ${WANDB} here` }, "slash"],
      ["set json", { name: "rl_edit_config", args: { field: "note", value: TINKER } }, "chat"],
      ["set base64 form", { text: `/rl set label ${Buffer.from(WANDB).toString("base64")}` }, "slash"],
    ] as const) {
      const refused = await run(what, input, { via });
      expect(refused.error?.code, what).toBe("INVALID_VALUE");
      expect(refused.text).toMatch(/holds one of the bot's secrets/);
    }
    expect(JSON.stringify(kit.services.db.prepare("SELECT * FROM channel_configs").all())).not.toContain("label");
    await run("set wrong type", { text: `/rl set count ${LLM}` });
    await run("unknown field", { text: `/rl set ${SLACK_TOKEN} 1` });
    await run("unknown command", { text: `/rl ${WANDB}` });
    await run("unknown env", { text: `/rl select ${TINKER}` });
    await run("refused", { text: `/rl set label ${TINKER}` }, { user: USERS.reader });
    await run("config", { text: "/rl config" });
    await run("reset", { text: "/rl reset" });
  });

  it("environment files: the docstring and a field default are shown redacted", async () => {
    const envs = await run("envs", { text: "/rl envs" });
    expect(JSON.stringify(envs)).toContain("Token: [redacted]");
    await run("select again", { text: "/rl select probe" });
    const config = await run("config defaults", { name: "rl_get_current_config", args: {} }, { via: "chat" });
    expect(JSON.stringify(config.data)).toContain("k-[redacted]");
  });

  it("a child's log echoing its environment, and a WandB error quoting the key, are redacted in every answer and notice", async () => {
    const started = await run("start", { text: "/rl start" }, { confirmed: true });
    expect(started.error?.code).toBe("PROCESS_FAILED");
    const id = (started.data as { run_id: string }).run_id;
    // The key really is in the log file: the child had it and printed it.
    expect(readFileSync(kit.services.manager.logPath(id, "trainer"), "utf8")).toContain(WANDB);
    expect(JSON.stringify(started)).toContain("upstream rejected key [redacted] and [redacted]");
    for (const text of [
      `/rl logs ${id}`,
      `/rl logs ${id} trainer --lines 200`,
      `/rl results ${id}`,
      `/rl status ${id}`,
    ])
      await run(text, { text });
    const status = await run("status json", { name: "rl_check_status", args: { run: id } });
    expect(JSON.stringify(status.data)).toMatch(/WandB (unavailable|answered)/);
    await run("logs json", { name: "rl_get_logs", args: { run: id, lines: 200 } }, { via: "chat" });
    // The start reply became the run's thread (as the platform adapters do), so its notice goes out at once.
    kit.services.runs.update(id, { thread: "1700000000.000200" });
    await kit.services.outboxSender.drain();
    expect(posted.length).toBeGreaterThan(0);
  });

  it("an LLM message holding a key: not sent to the model, not stored, not answered", async () => {
    llm.script(
      // The model repeats a key it should never have seen (e.g. from an older conversation).
      {
        toolCalls: [
          { name: "rl_edit_config", arguments: { field: "label", value: `x ${WANDB}` } },
          { name: "rl_get_logs", arguments: { run: kit.services.runs.listAll(1)[0]!.id } },
        ],
      },
      { text: `Done. Your key ${TINKER} is safe with me.` },
    );
    const chat = createChatHandler(kit.services);
    const reply = await chat(`please set label to ${TINKER} and ${LLM}`, kit.ctx(USERS.admin, { via: "chat" }));
    replies.push({ what: "chat", reply });
    expect(reply.text).toBe("Done. Your key [redacted] is safe with me.");
    expect(llm.requests.length).toBe(2);
  });

  it("leaves no key in any output", () => {
    const { db } = kit.services;
    const outputs: Array<[string, string]> = [
      ...replies.map(({ what, reply }): [string, string] => [`reply: ${what}`, JSON.stringify(reply)]),
      ...posted.map((reply, i): [string, string] => [`posted notice ${i}`, JSON.stringify(reply)]),
      ["log lines", kit.logLines.join("\n")],
      ["audit rows", JSON.stringify(db.prepare("SELECT * FROM audit").all())],
      ["outbox rows", JSON.stringify(db.prepare("SELECT * FROM outbox").all())],
      ["runs rows", JSON.stringify(db.prepare("SELECT * FROM runs").all())],
      ["channel config rows", JSON.stringify(db.prepare("SELECT * FROM channel_configs").all())],
      ["conversation rows", JSON.stringify(db.prepare("SELECT * FROM conversations").all())],
      ["LLM requests", JSON.stringify(llm.requests.map((r) => r.body))],
      ...readdirSync(kit.services.config.runConfigsDir).map((f): [string, string] => [
        `run config ${f}`,
        readFileSync(path.join(kit.services.config.runConfigsDir, f), "utf8"),
      ]),
    ];
    expect(replies.length).toBeGreaterThan(20);
    expect(kit.logLines.length).toBeGreaterThan(5);
    expect(readdirSync(kit.services.config.runConfigsDir).length).toBe(1);
    expect(
      outputs.map(([what, text]) => ({ what, found: leaks(text) })).filter(({ found }) => found.length > 0),
    ).toEqual([]);
  });
});
