// The columns confirmations and approvals share: who asked for which command where, until when, and the one answer it
// got. Both tables map them here, so the two cannot drift apart.
import { UNANSWERED } from "./answer-once.ts";
import type { ChannelKey } from "./channel-key.ts";

/** The shared columns as a row of either table holds them. */
export interface RawAskedCommand<State extends string> {
  id: string;
  platform: string;
  workspace: string;
  channel: string;
  asker_id: string;
  asker_name: string | null;
  command: string;
  command_text: string;
  args_json: string;
  created_at: number;
  expires_at: number;
  state: State;
  answered_by: string | null;
  answered_by_name: string | null;
  answered_at: number | null;
}

/** The shared columns as the code reads them. */
export interface AskedCommand<State extends string> {
  id: string;
  channel: ChannelKey;
  askerId: string;
  askerName?: string;
  /** The registry name of the command. */
  command: string;
  /** The command as a person reads it ("/rl stop \"ab12\""): shown and audited. */
  commandText: string;
  /** The arguments exactly as the person gave them; once answered yes, the command runs with these. */
  args: Record<string, unknown>;
  createdAt: number;
  expiresAt: number;
  state: State;
  answeredBy?: string;
  answeredByName?: string;
  answeredAt?: number;
}

/** What a new request says of the shared columns; the rest (id, times, answer) the table sets. */
export interface AskedCommandRequest {
  channel: ChannelKey;
  askerId: string;
  askerName?: string;
  command: string;
  commandText: string;
}

export function askedCommandFromRaw<State extends string>(r: RawAskedCommand<State>): AskedCommand<State> {
  return {
    id: r.id,
    channel: { platform: r.platform, workspace: r.workspace, channel: r.channel },
    askerId: r.asker_id,
    askerName: r.asker_name ?? undefined,
    command: r.command,
    commandText: r.command_text,
    args: JSON.parse(r.args_json) as Record<string, unknown>,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    state: r.state,
    answeredBy: r.answered_by ?? undefined,
    answeredByName: r.answered_by_name ?? undefined,
    answeredAt: r.answered_at ?? undefined,
  };
}

/** A new request's shared columns: pending, answered by no one yet, answerable from `createdAt` for `ttlMs`. */
export function newAskedCommandRaw(
  id: string,
  request: AskedCommandRequest,
  argsJson: string,
  createdAt: number,
  ttlMs: number,
): RawAskedCommand<typeof UNANSWERED.state> {
  return {
    id,
    platform: request.channel.platform,
    workspace: request.channel.workspace,
    channel: request.channel.channel,
    asker_id: request.askerId,
    asker_name: request.askerName ?? null,
    command: request.command,
    command_text: request.commandText,
    args_json: argsJson,
    created_at: createdAt,
    expires_at: createdAt + ttlMs,
    ...UNANSWERED,
  };
}
