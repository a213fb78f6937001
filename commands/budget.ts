// /rl budget [set|clear] ...: a channel's and a person's spending limits (runs, concurrent runs, steps, GPU-hours
// per day, week or month), and what is used and left of them.
import { z } from "zod";
import type { BudgetScope } from "../db/budgets.ts";
import { resetWords, standingData, standingLine } from "../src/budgets/budget-gate.ts";
import { parseBudgetKind, parseBudgetPeriod } from "../src/budgets/budget-window.ts";
import { RlError } from "../src/errors.ts";
import { accessOf } from "../src/policy.ts";
import { personRef, type Reply } from "../src/reply.ts";
import { usageOf } from "./arg-specs.ts";
import { defineCommand, type AnyCommand, type CommandContext } from "./types.ts";

const word = (what: string) => z.string().max(40).optional().describe(what);

const args = z.object({
  action: word("show (default), set or clear"),
  kind: word("What the limit counts: runs, concurrent, steps or gpu-hours"),
  amount: word("The limit, e.g. 40000 (set only)"),
  per: word('The word "per"'),
  period: word("The window: day, week or month (resets 00:00 UTC; Mondays; the 1st)"),
  user: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("A person's id: their limit in every channel here, not the channel's"),
});

type Args = z.output<typeof args>;

/** The words after the kind: "40000 per week", "per week", "week". */
function periodWord(input: Args, amountGiven: boolean): string | undefined {
  const words = [amountGiven ? undefined : input.amount, input.per, input.period].filter(
    (w): w is string => w !== undefined && w.toLowerCase() !== "per",
  );
  return words[0];
}

function scopeOf(input: Args, ctx: CommandContext): BudgetScope {
  const userId = input.user?.replace(/^<@!?([^>]+)>$/, "$1");
  return userId ? { kind: "person", channel: ctx.channel, userId } : { kind: "channel", channel: ctx.channel };
}

const whoseLimit = (scope: BudgetScope): string =>
  scope.kind === "channel" ? "this channel" : `${personRef(scope.userId)} (every channel here)`;

function requireAdmin(ctx: CommandContext<"config">, action: string): void {
  if (accessOf(ctx.services.config.policy, ctx.channel, ctx.user).role !== "admin")
    throw new RlError("FORBIDDEN", `Only an admin may ${action} a budget; anyone may see them with /rl budget.`);
}

function show(input: Args, ctx: CommandContext<"budgets">): Reply {
  const person = input.user ? scopeOf(input, ctx as CommandContext) : undefined;
  const userId = person?.kind === "person" ? person.userId : ctx.user.id;
  const standings = ctx.services.budgets.standings(ctx.channel, userId);
  if (standings.length === 0)
    return {
      title: "No budgets here",
      text: "Nothing limits runs in this channel. An admin sets one with /rl budget set steps 40000 per week (or runs, concurrent, gpu-hours; per day, week or month; --user ID for one person).",
      data: { budgets: [] },
    };
  return {
    title: "Budgets",
    fields: standings.map((s) => ({
      label: `${s.limit.scope.kind === "channel" ? "Channel" : personRef(userId)}: ${s.limit.kind}${s.limit.kind === "concurrent" ? " at once" : ` per ${s.limit.period}`}`,
      value: `${standingLine(s, ctx.user.id)}${s.limit.kind === "concurrent" ? "" : `; resets ${resetWords(s.resetAt)}`}`,
    })),
    data: {
      budgets: standings.map(standingData),
    },
  };
}

const budget: AnyCommand = defineCommand({
  name: "budget",
  summary: "Show or set spending limits",
  description:
    "Show this channel's and your spending limits with what is used and left (runs started, queued and live runs, training steps, Slurm GPU-hours; per day, week or month in UTC). Admins: `set <runs|concurrent|steps|gpu-hours> <N> per <day|week|month> [--user ID]` sets one for the channel or for one person, `clear <kind> [per <window>] [--user ID]` removes it. A start, rerun, sweep or resume over a limit is refused with what is left and when it resets.",
  toolName: "rl_budget",
  args,
  positional: ["action", "kind", "amount", "per", "period"],
  permission: "read",
  uses: ["budgets", "config", "now"],
  mutates: true,
  // Showing is a read for the asker (their own limits among them); setting and clearing are the team's to see.
  personal: ({ action }) => (action ?? "show").toLowerCase() === "show" || action === "",
  examples: [
    "/rl budget",
    "/rl budget set steps 40000 per week",
    "/rl budget set concurrent 2 per day --user U123",
    "/rl budget clear steps per week",
  ],
  async run(input, ctx) {
    const action = (input.action ?? "show").toLowerCase();
    if (action === "show" || action === "") return show(input, ctx);
    if (action !== "set" && action !== "clear")
      throw new RlError(
        "USAGE",
        `"${action.slice(0, 40)}" is not a budget action: use show, set or clear.\nUsage: ${usageOf(budget)}`,
      );
    requireAdmin(ctx, action);
    const scope = scopeOf(input, ctx as CommandContext);
    const kind = parseBudgetKind(input.kind);
    if (action === "clear") {
      const given = periodWord(input, false);
      const period = given === undefined ? undefined : parseBudgetPeriod(given);
      const removed = ctx.services.budgets.clear(scope, kind, period);
      if (removed === 0)
        throw new RlError(
          "NOT_FOUND",
          `There is no ${kind} budget${period ? ` per ${period}` : ""} for ${whoseLimit(scope)}. See /rl budget.`,
        );
      return {
        title: `Budget cleared: ${kind}${period ? ` per ${period}` : ""} for ${whoseLimit(scope)}`,
        data: { cleared: removed },
      };
    }
    const amount = Number(input.amount);
    if (!input.amount || !Number.isFinite(amount) || amount < 0 || (kind !== "gpu-hours" && !Number.isInteger(amount)))
      throw new RlError(
        "USAGE",
        `The limit must be ${kind === "gpu-hours" ? "a number of hours" : "a whole number"} (0 or more), e.g. /rl budget set ${kind} 40 per week.`,
      );
    // A concurrent limit has no window; "per day" is accepted and kept for the same words everywhere.
    const given = periodWord(input, true);
    if (given === undefined && kind !== "concurrent")
      throw new RlError(
        "USAGE",
        `Say the window: /rl budget set ${kind} ${input.amount} per day, per week or per month.`,
      );
    const period = given === undefined ? "day" : parseBudgetPeriod(given);
    ctx.services.budgets.set({ scope, kind, period, amount, setBy: ctx.user.id, setAt: ctx.services.now() });
    return {
      title: `Budget set: ${amount.toLocaleString("en-US")} ${kind === "concurrent" ? "runs at once" : `${kind} per ${period}`} for ${whoseLimit(scope)}`,
      text: "Starts, reruns, sweeps and resumes over it are refused; an admin can pass one with --over-budget (audited).",
      data: {
        scope: scope.kind,
        ...(scope.kind === "person" ? { user: scope.userId } : {}),
        kind,
        period,
        limit: amount,
      },
    };
  },
});

export default budget;
