// Answering confirmation prompts through the dispatcher, on real services: once, by the asker or an admin, before
// expiry, where it was asked; confirmed: true only for the local command line; the console's y/N through the record.
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { CONSOLE_CHANNEL, runConsole } from "../../adapters/console/console.ts";
import { dispatch } from "../../commands/dispatch.ts";
import { COMMANDS } from "../../commands/index.ts";
import { defineCommand, type CommandContext } from "../../commands/types.ts";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { waitFor as waitUntil } from "../helpers/bot-process.ts";
import { answer, confirmationOf } from "../helpers/confirm.ts";
import { tempDir } from "../helpers/test-services.ts";

const SECRET = "tk-live-0123456789abcdef";
const slack = { platform: "slack", workspace: "T1", channel: "C1" };
const opened: Services[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

let t = 1_700_000_000_000;
function services(env: Record<string, string> = {}): Services {
  const s = createServices(
    loadConfig(
      {
        RL_LOG_LEVEL: "silent",
        RL_DEFAULT_ROLE: "read",
        RL_OPERATORS: "slack:UALICE,slack:UBOB",
        RL_ADMINS: "slack:UADMIN",
        TINKER_API_KEY: SECRET,
        ...env,
      },
      tempDir(),
    ),
    { now: () => t },
  );
  opened.push(s);
  return s;
}

const people = {
  alice: { id: "UALICE", name: "alice" },
  bob: { id: "UBOB", name: "bob" },
  reader: { id: "UREAD", name: "reader" },
  admin: { id: "UADMIN", name: "admin" },
};
const ctx = (
  s: Services,
  who: keyof typeof people,
  via: CommandContext["via"] = "slash",
  channel = slack,
): CommandContext => ({ channel, user: people[who], via, services: s });

/** Alice's run feed0001, queued (stopping it is cheap and deterministic), and her prompt to stop it. */
async function stopPrompt(s: Services) {
  s.runs.insert({
    id: "feed0001",
    channel: slack,
    environment: "arithmetic",
    config: {},
    status: "queued",
    createdBy: "UALICE",
  });
  const prompt = await dispatch({ text: "/rl stop feed0001" }, ctx(s, "alice"));
  expect(prompt.needsConfirmation).toBe(true);
  return prompt.reply;
}

describe("answering a confirmation prompt", () => {
  it("runs the stored command once for its asker; a second answer is told who answered, and changes nothing", async () => {
    const s = services();
    const prompt = await stopPrompt(s);
    t += 6_000;
    const done = await answer(prompt, ctx(s, "alice"));
    expect(done).toMatchObject({ ok: true, answer: { outcome: "confirmed" } });
    expect(done.reply.title).toBe("⏹ Run feed0001 (arithmetic): stopped");
    for (const verb of ["confirm", "cancel"] as const) {
      const again = await answer(prompt, ctx(s, "alice"), verb);
      expect(again).toMatchObject({
        ok: false,
        answer: { outcome: "answered" },
        reply: { delivery: { ephemeral: true }, text: "This was already answered (confirmed by alice)." },
      });
    }
    expect(s.confirmations.get(confirmationOf(prompt))).toMatchObject({
      state: "confirmed",
      answeredBy: "UALICE",
      answeredAt: t,
    });
    expect(s.audit.latest(10).map((a) => [a.userId, a.command, a.outcome, a.args["confirmation"] ?? null])).toEqual([
      ["UALICE", "cancel", "refused", confirmationOf(prompt)],
      ["UALICE", "confirm", "refused", confirmationOf(prompt)],
      ["UALICE", "stop", "ok", null],
      ["UALICE", "confirm", "ok", confirmationOf(prompt)],
    ]);
  });

  it("refuses anyone but the asker or an admin, even an operator, and keeps the prompt pending", async () => {
    const s = services();
    const prompt = await stopPrompt(s);
    for (const who of ["bob", "reader"] as const) {
      for (const verb of ["confirm", "cancel"] as const) {
        const refused = await answer(prompt, ctx(s, who), verb);
        expect(refused).toMatchObject({
          ok: false,
          answer: { outcome: "refused" },
          reply: { error: { code: "FORBIDDEN" }, text: "Only alice or an admin can answer this prompt." },
        });
      }
    }
    expect(s.confirmations.get(confirmationOf(prompt))?.state).toBe("pending");
    expect(s.runs.get("feed0001")?.status).toBe("queued");
    // The asker still can; here she cancels.
    const cancelled = await answer(prompt, ctx(s, "alice"), "cancel");
    expect(cancelled).toMatchObject({
      ok: true,
      answer: { outcome: "cancelled" },
      reply: { title: "Cancelled", text: 'Cancelled by alice: /rl stop "feed0001". Nothing ran.' },
    });
    expect(s.runs.get("feed0001")?.status).toBe("queued");
  });

  it("lets an admin confirm someone else's prompt, which then runs under the admin's permissions", async () => {
    const s = services();
    const prompt = await stopPrompt(s);
    const done = await answer(prompt, ctx(s, "admin"));
    expect(done.ok).toBe(true);
    expect(s.runs.get("feed0001")).toMatchObject({ status: "stopped", stoppedBy: "admin" });
    expect(s.confirmations.get(confirmationOf(prompt))).toMatchObject({
      askerId: "UALICE",
      answeredBy: "UADMIN",
      state: "confirmed",
    });
  });

  it("refuses an expired prompt, and one brought to another channel or platform, without changing it", async () => {
    const s = services();
    const prompt = await stopPrompt(s);
    expect((await answer(prompt, ctx(s, "alice", "button", { ...slack, channel: "C2" }))).answer?.outcome).toBe(
      "unknown",
    );
    expect((await answer(prompt, ctx(s, "alice", "button", { ...slack, platform: "discord" }))).answer?.outcome).toBe(
      "unknown",
    );
    t += 15 * 60_000;
    const expired = await answer(prompt, ctx(s, "alice"));
    expect(expired).toMatchObject({
      ok: false,
      answer: { outcome: "expired" },
      reply: { text: "This prompt expired; run the command again." },
    });
    expect(s.confirmations.get(confirmationOf(prompt))?.state).toBe("pending");
    expect(s.runs.get("feed0001")?.status).toBe("queued");
    const unknown = await dispatch({ confirmation: "../../etc/passwd", answer: "confirm" }, ctx(s, "alice"));
    expect(unknown).toMatchObject({
      ok: false,
      answer: { outcome: "unknown" },
      reply: { error: { code: "NOT_FOUND" } },
    });
  });

  it("honours confirmed: true only from the local command line and piped console, never on a platform", async () => {
    const s = services();
    s.runs.insert({
      id: "feed0001",
      channel: slack,
      environment: "arithmetic",
      config: {},
      status: "queued",
      createdBy: "UALICE",
    });
    for (const via of ["slash", "button", "chat"] as const) {
      const r = await dispatch({ text: "/rl stop feed0001" }, ctx(s, "alice", via), { confirmed: true });
      expect(r.needsConfirmation).toBe(true);
    }
    const chatOnConsole = await dispatch(
      { name: "rl_stop_training", args: { run: "feed0001" } },
      { ...ctx(s, "alice", "chat"), channel: CONSOLE_CHANNEL },
      { confirmed: true },
    );
    expect(chatOnConsole.needsConfirmation).toBe(true);
    expect(s.runs.get("feed0001")?.status).toBe("queued");
    s.runs.insert({
      id: "feed0002",
      channel: CONSOLE_CHANNEL,
      environment: "arithmetic",
      config: {},
      status: "queued",
      createdBy: "local",
    });
    const local = await dispatch(
      { text: "/rl stop feed0002" },
      { channel: CONSOLE_CHANNEL, user: { id: "local" }, via: "cli", services: s },
      { confirmed: true },
    );
    expect(local.ok).toBe(true);
    expect(s.runs.get("feed0002")?.status).toBe("stopped");
  });

  it("refuses to make a button for a command holding a secret, and stores nothing", async () => {
    const s = services({ RL_DEFAULT_ROLE: "operate" });
    const launch = defineCommand({
      name: "launch",
      summary: "t",
      description: "t",
      args: z.object({ name: z.string() }),
      positional: ["name"],
      permission: "operate",
      uses: [],
      confirm: true,
      run: async () => ({ title: "launched" }),
    });
    const r = await dispatch({ text: `/rl launch ${SECRET}` }, ctx(s, "alice"), { commands: [...COMMANDS, launch] });
    expect(r).toMatchObject({ ok: false, reply: { error: { code: "USAGE" } } });
    expect(r.reply.buttons).toBeUndefined();
    expect(JSON.stringify(r)).not.toContain(SECRET);
    expect(s.db.prepare("SELECT count(*) AS n FROM confirmations").get()).toEqual({ n: 0 });
  });
});

describe("the console at a terminal", () => {
  /** A terminal session: lines typed into a TTY-like input; everything printed. */
  function terminal(s: Services) {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const output = new PassThrough();
    let printed = "";
    output.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
    const done = runConsole(s, { input, output, userName: "local" });
    const waitFor = async (re: RegExp) => {
      // A bound for a hung console, not a timing check; on time-out the expect shows what was printed.
      await waitUntil(() => re.test(printed), `${re} on the terminal`).catch(() => undefined);
      expect(printed).toMatch(re);
    };
    return { input, done, waitFor, printed: () => printed };
  }

  it("answers the prompt's record with y (confirmed by the console user) or N (cancelled)", async () => {
    const s = services();
    s.runs.insert({
      id: "feed0001",
      channel: CONSOLE_CHANNEL,
      environment: "arithmetic",
      config: {},
      status: "queued",
      createdBy: "local",
    });
    s.runs.insert({
      id: "feed0002",
      channel: CONSOLE_CHANNEL,
      environment: "arithmetic",
      config: {},
      status: "queued",
      createdBy: "local",
    });
    const tty = terminal(s);
    tty.input.write("/rl stop feed0001\n");
    await tty.waitFor(/Go ahead\? \[y\/N\]/);
    tty.input.write("y\n");
    await tty.waitFor(/Run feed0001 \(arithmetic\): stopped/);
    tty.input.write("/rl stop feed0002\n");
    await tty.waitFor(/Stop run feed0002[\s\S]*Go ahead\?/);
    tty.input.write("n\n");
    await tty.waitFor(/Cancelled\./);
    tty.input.end();
    await tty.done;
    expect(s.runs.get("feed0001")?.status).toBe("stopped");
    expect(s.runs.get("feed0002")?.status).toBe("queued");
    const rows = s.db
      .prepare("SELECT command_text, state, asker_id, answered_by FROM confirmations ORDER BY created_at, rowid")
      .all();
    expect(rows).toEqual([
      { command_text: '/rl stop "feed0001"', state: "confirmed", asker_id: "local", answered_by: "local" },
      { command_text: '/rl stop "feed0002"', state: "cancelled", asker_id: "local", answered_by: "local" },
    ]);
  });
});
