// The terminal console: each line is a /rl command for channel "console", run as the local admin user.
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { confirmButtons, type ConfirmButton, type Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import type { ChatAdapter, ChatHandler, MessageRef } from "../chat-adapter.ts";
import { redactReply } from "../redact-reply.ts";
import { renderText } from "../render-text.ts";
import { routeMarker } from "../../src/notify/describe-route.ts";
import { ownPerson } from "../../src/local-people.ts";

export const CONSOLE_CHANNEL = { platform: "console", workspace: "local", channel: "console" } as const;

export interface ConsoleOptions {
  input?: Readable;
  output?: Writable;
  /** Handles lines that are not /rl commands (chat mode); without it they get a hint. */
  chat?: ChatHandler;
  userName?: string;
  /** Aborted on SIGTERM/SIGINT: the console stops reading, and answers no line read after it. */
  signal?: AbortSignal;
  /** The texts of the notices printed so far: a failure a notice has just told is not told again. */
  noticeTexts?: ReadonlySet<string>;
}

export interface ConsoleAdapter extends ChatAdapter {
  readonly platform: "console";
  /** Resolves when the console has stopped reading (end of input, exit, or stop()). */
  readonly done: Promise<void>;
}

/**
 * The terminal as a chat platform: start() reads lines until the input ends, post() prints notices and digests.
 * A terminal has no threads and cannot change what it printed, so update() prints the reply again.
 */
export function createConsoleAdapter(services: Services, options: Omit<ConsoleOptions, "signal"> = {}): ConsoleAdapter {
  const output = options.output ?? process.stdout;
  const abort = new AbortController();
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let running: Promise<void> | undefined;
  let printed = 0;
  const noticeTexts = new Set<string>();
  // Resolves once the text is out of this process (the write's callback), not when it is queued in the stream: the
  // outbox marks a notice sent as soon as post() returns, and behind a slow terminal or pipe a queued text is lost
  // if the bot is killed.
  const print = (reply: Reply): Promise<void> =>
    new Promise((resolve, reject) =>
      output.write(`${renderText(redactReply(reply, services.redact))}\n`, (err) => (err ? reject(err) : resolve())),
    );
  return {
    platform: "console",
    threads: false,
    done,
    async start() {
      running ??= runConsole(services, { ...options, signal: abort.signal, noticeTexts })
        .catch((err: unknown) => services.log.error("console failed", { err }))
        .finally(resolveDone);
    },
    async stop() {
      abort.abort();
      if (!running) resolveDone();
      await done;
    },
    async post(target, reply, delivery): Promise<MessageRef> {
      if (reply.text) noticeTexts.add(reply.text);
      // A DM or another channel has no place in a terminal: the notice is printed, saying where it would go.
      const marker = routeMarker(target.channel, delivery);
      await print(marker ? { ...reply, title: `${marker}: ${reply.title}` } : reply);
      return { channel: target.channel, id: String(++printed) };
    },
    async update(ref, reply) {
      await print(reply);
      return ref;
    },
    threadOf: (ref) => ref.id,
  };
}

const HINT = "Commands start with /rl (try /rl help). Plain-language requests need LLM_BASE_URL and LLM_MODEL set.";

/** Runs until end of input; resolves when the input closes (Ctrl-D, or the end of piped lines). */
export async function runConsole(services: Services, options: ConsoleOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const interactive = (input as { isTTY?: boolean }).isTTY === true;
  const rl = createInterface({ input, output, terminal: interactive, prompt: "rl> " });
  // The machine's user who started the bot in this terminal, as exec would take them (never $USER, which any
  // process may set).
  const person = options.userName ?? ownPerson(services.config.localPeople);
  const user = { id: person, name: person };
  // What the terminal shows is redacted once, here, as each platform's adapter does where it sends. A terminal has
  // no threads: a failed start's reason, just printed by the run's failure notice, is not printed a second time.
  const show = (reply: Reply): string => {
    const told = reply.error && reply.text && options.noticeTexts?.has(reply.text);
    return renderText(redactReply(told ? { ...reply, text: undefined } : reply, services.redact));
  };
  const ctx: CommandContext = {
    channel: CONSOLE_CHANNEL,
    user,
    via: "console",
    services,
    progress: async (text) => {
      output.write(`… ${services.redact(text)}\n`);
    },
  };
  // One conversation per console session: the model remembers this session's lines, not last week's.
  const chatCtx: CommandContext = { ...ctx, via: "chat", thread: `session-${new Date(services.now()).toISOString()}` };
  if (interactive) {
    output.write(`rl-chatops console: environments in ${services.config.environmentsDir}. Type /rl help.\n`);
    rl.prompt();
  }
  // A prompt on a closed interface resumes the input, and a terminal being read keeps the process alive: a console
  // stopped by a signal while a command ran would never let the bot exit.
  let closed = false;
  rl.once("close", () => (closed = true));
  const prompt = () => {
    if (interactive && !closed) rl.prompt();
  };
  const lines = rl[Symbol.asyncIterator]();
  const stopped = () => options.signal?.aborted === true;
  // Closing readline ends the iterator; lines it had already buffered are skipped by the checks below.
  const onAbort = () => rl.close();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (stopped()) rl.close();
  const ask = async (question: string): Promise<boolean> => {
    output.write(`${question} [y/N] `);
    const answer = await lines.next();
    return !stopped() && !answer.done && /^y(es)?$/i.test(answer.value.trim());
  };
  /** The person's y or N answers the prompt's record, as any Confirm or Cancel click would. */
  const answer = async (button: ConfirmButton, yes: boolean): Promise<void> => {
    const result = await dispatch({ confirmation: button.confirmation, answer: yes ? "confirm" : "cancel" }, ctx);
    output.write(result.answer?.outcome === "cancelled" ? "Cancelled.\n" : `${show(result.reply)}\n`);
  };
  for (;;) {
    const next = await lines.next();
    if (next.done || stopped()) break;
    const raw = next.value;
    const line = raw.trim();
    if (line === "") {
      prompt();
      continue;
    }
    if (line === "exit" || line === "quit") break;
    if (/^\/?rl(\s|$)/i.test(line)) {
      // Piped input is a script its author already means to run; a person at a terminal confirms.
      const first = await dispatch({ text: line }, ctx, { confirmed: !interactive });
      if (first.needsConfirmation) {
        output.write(`${show({ ...first.reply, buttons: undefined })}\n`);
        const [confirm] = confirmButtons(first.reply);
        if (confirm) await answer(confirm, await ask("Go ahead?"));
        else output.write("Cancelled.\n");
      } else output.write(`${show(first.reply)}\n`);
    } else if (options.chat) {
      const reply = await options.chat(line, chatCtx);
      const proposals = confirmButtons(reply);
      output.write(`${show(proposals.length ? { ...reply, buttons: undefined } : reply)}\n`);
      // The model only proposed these: a person at a terminal says yes to each; piped input never does.
      for (const proposal of proposals) {
        if (interactive) await answer(proposal, await ask(`Run ${services.redact(proposal.command)}?`));
        else output.write(`Not run (needs a person's yes): ${services.redact(proposal.command)}\n`);
      }
    } else {
      output.write(`${HINT}\n`);
    }
    prompt();
  }
  options.signal?.removeEventListener("abort", onAbort);
  rl.close();
  // A database file gone from under the bot refuses reads too; the bot has said so already.
  const live = services.dbWatch?.fault ? [] : services.runs.listByStatus(["queued", "starting", "running"]);
  if (live.length > 0) {
    output.write(
      `${live.map((r) => r.id).join(", ")} ${live.length === 1 ? "keeps" : "keep"} running; start the bot again to follow ${live.length === 1 ? "it" : "them"} (or /rl stop).\n`,
    );
  }
}
