// A client's request that changes something (exec, MCP, a replayed interaction) runs once: its id is recorded before the
// command runs and its answer after; a retry with the same id hears that answer, waits for it, or hears why there is none.
import { describeDbError } from "../db/describe-db-error.ts";
import { runForRequest } from "../db/request-scope.ts";
import { REQUEST_ID_SHAPE, type RequestAsked, type RequestRow, type RequestsRepo } from "../db/requests.ts";
import { RlError } from "../src/errors.ts";
import { crashPoint } from "../src/process/crash-point.ts";
import { redactDeep } from "../src/redact.ts";
import type { DispatchResult, RunInput } from "./dispatch-result.ts";
import { errorReply } from "./error-reply.ts";
import { parseCommandText } from "./parse-command-text.ts";
import type { AnyCommand, CommandContext } from "./types.ts";

/** The requests this process is answering now, per database: a retry that arrives meanwhile waits for the same answer. */
const answering = new WeakMap<RequestsRepo, Map<string, Promise<DispatchResult>>>();

/** The command the input names, when it changes something (reads are answered again, as often as asked). */
function changingCommand(input: RunInput, commands: readonly AnyCommand[]): AnyCommand | undefined {
  let command: AnyCommand | undefined;
  try {
    command =
      "text" in input
        ? parseCommandText(String(input.text), commands).command
        : commands.find((c) => c.name === input.name || c.toolName === input.name);
  } catch {
    // Not a command: runCommand says why, and nothing runs.
    return undefined;
  }
  return command && (command.mutates || command.confirm) ? command : undefined;
}

const failed = (err: RlError): DispatchResult => ({ reply: errorReply(err), ok: false });

/** Why a request taken by an owner that died has no answer, and what it left. */
function interrupted(row: RequestRow, ctx: CommandContext): RlError {
  const runs = ctx.services.runs.listByRequest(row.id);
  const left = runs.length
    ? ` Before it stopped it had created ${runs.map((r) => `run ${r.id} (${r.status})`).join(", ")}.`
    : "";
  return new RlError(
    "INTERRUPTED",
    `The bot (pid ${row.ownerPid}) that took this command (${row.commandText}) at ${new Date(row.createdAt).toISOString()} ` +
      `stopped before answering it, and it was not run again.${left} See what it did with /rl runs or /rl status ` +
      `before asking again (with a new request).`,
    { details: { requestId: row.id, runs: runs.map((r) => r.id) } },
  );
}

/** A request id seen before: its answer, the answer still coming, or why there is none. */
async function answerAgain(row: RequestRow, asked: RequestAsked, ctx: CommandContext): Promise<DispatchResult> {
  const same =
    row.commandText === asked.commandText &&
    row.userId === asked.userId &&
    row.channel.platform === asked.channel.platform &&
    row.channel.workspace === asked.channel.workspace &&
    row.channel.channel === asked.channel.channel;
  if (!same)
    return failed(
      new RlError(
        "CONFLICT",
        `The request id ${row.id} was already used for another command (${row.commandText}); give each command a new id.`,
      ),
    );
  if (row.answer) return { ...row.answer, replayed: true };
  const coming = answering.get(ctx.services.requests)?.get(row.id);
  if (coming) return { ...(await coming), replayed: true };
  return failed(interrupted(row, ctx));
}

/**
 * Runs `run` for request `id` once. Only commands that change something are recorded: a read is answered afresh, and
 * writes nothing, so it answers on a full disk.
 */
export async function answerRequestOnce(
  id: string,
  input: RunInput,
  ctx: CommandContext,
  commands: readonly AnyCommand[],
  run: () => Promise<DispatchResult>,
): Promise<DispatchResult> {
  if (!REQUEST_ID_SHAPE.test(id))
    return failed(
      new RlError("USAGE", "A request id is 8 to 128 letters, digits, '.', '_', ':' or '-'; make a new one."),
    );
  if (!changingCommand(input, commands)) return run();
  const { requests } = ctx.services;
  const asked: RequestAsked = {
    channel: ctx.channel,
    userId: ctx.user.id,
    commandText: "text" in input ? String(input.text) : `${input.name} ${JSON.stringify(input.args)}`,
  };
  let taken: boolean;
  try {
    taken = requests.take(id, asked);
  } catch (err) {
    // Not recorded, so not run: a retry could not tell it ran.
    return failed(describeDbError(ctx.services.config.databasePath, err));
  }
  if (!taken) return answerAgain(requests.get(id)!, asked, ctx);
  crashPoint("request:taken");
  const mine = answering.get(requests) ?? new Map<string, Promise<DispatchResult>>();
  answering.set(requests, mine);
  const result = runForRequest(id, run);
  mine.set(id, result);
  try {
    const done = await result;
    try {
      requests.answer(id, done.ok, redactDeep(done.reply, ctx.services.redact));
    } catch (err) {
      ctx.services.log.error("could not record a request's answer", { requestId: id, err });
    }
    crashPoint("request:answered");
    return done;
  } finally {
    mine.delete(id);
  }
}
