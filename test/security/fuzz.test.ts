// Seeded fuzzing of the command parser, the dispatcher (typed and JSON), field names, value parsing and button text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml, stringify } from "yaml";
import { commandText } from "../../commands/confirmation/button-text.ts";
import { dispatch } from "../../commands/dispatch.ts";
import { COMMANDS } from "../../commands/index.ts";
import { parseCommandText } from "../../commands/parse-command-text.ts";
import type { ConfigField, FieldType } from "../../src/environments/types.ts";
import { normaliseFieldName } from "../../src/environment-ops.ts";
import { RlError, type ErrorCode } from "../../src/errors.ts";
import { SEED_LOCKED_FIELDS } from "../../src/locked-fields.ts";
import { MAX_LIST_ITEMS, parseFieldValue } from "../../src/values/parse-field-value.ts";
import { hostileJson, hostileText, hostileWord, int, pick } from "./hostile-input.ts";
import { POLICY_ENV, USERS, insertRun, seeded, startKit, type Kit } from "./security-kit.ts";

/** RL_FUZZ_SEED=n explores other inputs; a failure message names the seed and case to replay. */
const SEED = Number(process.env.RL_FUZZ_SEED ?? 20_240_611);
const COUNTS = {
  parse: 4_000,
  dispatchText: 2_500,
  dispatchJson: 1_500,
  dispatchShaped: 2_000,
  names: 3_000,
  values: 6_000,
  buttons: 2_000,
};
const KNOWN: ReadonlySet<ErrorCode> = new Set([
  "USAGE",
  "NOT_FOUND",
  "NO_ENVIRONMENT",
  "INVALID_VALUE",
  "LOCKED_FIELD",
  "FORBIDDEN",
  "RATE_LIMITED",
  "CONFLICT",
]);

const rejections: unknown[] = [];
const onRejection = (reason: unknown) => void rejections.push(reason);
let kit: Kit;

beforeAll(async () => {
  process.on("unhandledRejection", onRejection);
  kit = startKit({ env: POLICY_ENV });
  insertRun(kit.services, "feed0001", USERS.operator);
  insertRun(kit.services, "feed0002", USERS.admin, undefined, "completed");
  // Selected in the operator's channel, so set/reset/config reach the value parser.
  expect((await dispatch({ text: "/rl select probe" }, kit.ctx(USERS.operator))).ok).toBe(true);
});
afterAll(async () => {
  await kit.close();
  process.off("unhandledRejection", onRejection);
  expect(rejections).toEqual([]);
});

/** Never /rl test here: it spawns processes against a model endpoint. Everything else runs for real. */
const FUZZ_COMMANDS = COMMANDS.filter((c) => c.name !== "test");
const LOCKED = new Set(Object.keys(SEED_LOCKED_FIELDS.env));

function expectRlError(err: unknown, codes: ReadonlySet<string>, what: string): void {
  if (!(err instanceof RlError))
    throw new Error(`${what}: threw ${String(err)}${err instanceof Error ? `\n${err.stack}` : ""}`);
  if (!codes.has(err.code)) throw new Error(`${what}: code ${err.code}: ${err.message}`);
}

describe("fuzz", () => {
  it(`parseCommandText: ${COUNTS.parse} texts parse or fail with USAGE`, () => {
    const rng = seeded(SEED);
    let parsed = 0;
    for (let i = 0; i < COUNTS.parse; i++) {
      const text = hostileText(rng);
      try {
        const { command, args } = parseCommandText(text, COMMANDS);
        expect(COMMANDS).toContain(command);
        expect(Object.keys(args).every((k) => Object.hasOwn(args, k))).toBe(true);
        parsed++;
      } catch (err) {
        expectRlError(err, new Set(["USAGE"]), `seed ${SEED} case ${i} ${JSON.stringify(text.slice(0, 200))}`);
      }
    }
    // The generator reaches the commands, not only the error paths.
    expect(parsed).toBeGreaterThan(COUNTS.parse / 20);
  });

  it(`dispatch: ${COUNTS.dispatchText} typed, ${COUNTS.dispatchJson} JSON and ${COUNTS.dispatchShaped} well-formed inputs with hostile values answer with known codes, never a throw`, async () => {
    const rng = seeded(SEED + 1);
    const users = Object.values(USERS);
    const outcomes = new Map<string, number>();
    const check = async (input: Parameters<typeof dispatch>[0], i: number): Promise<void> => {
      const user = pick(rng, users);
      const result = await dispatch(input, kit.ctx(user, { via: pick(rng, ["slash", "button", "chat"] as const) }), {
        commands: FUZZ_COMMANDS,
      });
      const code = result.reply.error?.code;
      const key = code ?? (result.needsConfirmation ? "confirm" : "ok");
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      if (code !== undefined && !KNOWN.has(code as ErrorCode))
        throw new Error(
          `seed ${SEED + 1} case ${i}: ${code}: ${result.reply.text} for ${JSON.stringify(input).slice(0, 300)}`,
        );
      expect(result.ok).toBe(code === undefined);
      // Nothing unserialisable reaches a renderer or the LLM.
      expect(() => JSON.stringify(result.reply)).not.toThrow();
    };
    for (let i = 0; i < COUNTS.dispatchText; i++) await check({ text: hostileText(rng) }, i);
    for (let i = 0; i < COUNTS.dispatchJson; i++) {
      const name =
        rng() < 0.8
          ? pick(
              rng,
              FUZZ_COMMANDS.map((c) => (rng() < 0.5 ? c.name : (c.toolName ?? c.name))),
            )
          : hostileWord(rng);
      await check({ name, args: hostileJson(rng, 6) as Record<string, unknown> }, i);
    }
    // Well-formed commands whose values are hostile: these reach the operations (config edits, run look-ups).
    const fields = ["label", "note", "count", "ratio", "flag", "mode", "tags", "extra", "anything", ...LOCKED];
    for (let i = 0; i < COUNTS.dispatchShaped; i++) {
      const value = hostileWord(rng).slice(0, 3_000);
      const field = rng() < 0.8 ? pick(rng, fields) : hostileWord(rng).slice(0, 200);
      const input = pick(rng, [
        { text: `/rl set ${field} ${value}` },
        { name: "rl_edit_config", args: { field, value } },
        { text: `/rl reset ${field}` },
        {
          name: pick(rng, ["rl_check_status", "rl_get_results", "rl_get_logs", "rl_stop_training"]),
          args: { run: value.slice(0, 64) },
        },
        { name: "rl_select_environment", args: { name: value.slice(0, 200) } },
      ]);
      await check(input, i);
    }
    expect(outcomes.get("ok") ?? 0).toBeGreaterThan(200);
    expect(outcomes.get("INVALID_VALUE") ?? 0).toBeGreaterThan(50);
    expect(outcomes.get("LOCKED_FIELD") ?? 0).toBeGreaterThan(50);
    expect(outcomes.has("INTERNAL")).toBe(false);
    // Whatever was typed, no channel ever holds a value for a locked field, and the runs are as they were.
    const rows = kit.services.db.prepare("SELECT values_json FROM channel_configs").all() as Array<{
      values_json: string;
    }>;
    for (const row of rows)
      for (const key of Object.keys(JSON.parse(row.values_json) as object)) expect(LOCKED.has(key)).toBe(false);
    expect(kit.services.runs.get("feed0002")?.status).toBe("completed");
  });

  it(`field names: ${COUNTS.names} names normalise to a name or are refused, and locked ones are never settable`, async () => {
    const rng = seeded(SEED + 2);
    for (let i = 0; i < COUNTS.names; i++) {
      const name =
        rng() < 0.5
          ? hostileWord(rng)
          : `${pick(rng, ["", " ", "env.", "ENV:", "Env . ", "\u200b", "ｅｎｖ．"])}${pick(rng, [...LOCKED])}${pick(rng, ["", " ", "\u200b", "\u0301", "\n"])}`.replace(
              /_/g,
              () => pick(rng, ["_", "-", " ", "\u2010", "＿"]),
            );
      try {
        expect(typeof normaliseFieldName(name)).toBe("string");
      } catch (err) {
        expectRlError(
          err,
          new Set(["LOCKED_FIELD", "NOT_FOUND"]),
          `seed ${SEED + 2} case ${i} ${JSON.stringify(name)}`,
        );
      }
      if (i % 10 === 0) {
        const r = await dispatch(
          { name: "rl_edit_config", args: { field: name.slice(0, 200), value: "5" } },
          kit.ctx(USERS.operator, { via: "chat" }),
        );
        if (r.ok) expect(LOCKED.has(String((r.reply.data as { field: string }).field))).toBe(false);
      }
    }
  });

  it(`values: ${COUNTS.values} raw values parse into the field's type or fail with INVALID_VALUE, and survive YAML as data`, () => {
    const rng = seeded(SEED + 3);
    const types: FieldType[] = [
      { kind: "int" },
      { kind: "float" },
      { kind: "bool" },
      { kind: "str" },
      { kind: "optional", inner: { kind: "int" } },
      { kind: "list", item: { kind: "str" } },
      { kind: "list", item: { kind: "float" } },
      { kind: "list", item: { kind: "list", item: { kind: "int" } } },
      { kind: "enum", values: ["a", "b", 3, true] },
      { kind: "dict" },
      { kind: "any" },
    ];
    for (let i = 0; i < COUNTS.values; i++) {
      const fieldType = pick(rng, types);
      const field: ConfigField = {
        name: "f",
        type: fieldType.kind,
        fieldType,
        default: undefined,
        description: "",
        locked: false,
        ...(rng() < 0.3 ? { min: -10, max: 10 } : {}),
      };
      const raw = rng() < 0.6 ? hostileText(rng).slice(0, 5_000) : hostileJson(rng, 5);
      let value: unknown;
      try {
        value = parseFieldValue(raw, field);
      } catch (err) {
        expectRlError(
          err,
          new Set(["INVALID_VALUE"]),
          `seed ${SEED + 3} case ${i} ${fieldType.kind} ${JSON.stringify(raw)?.slice(0, 200)}`,
        );
        continue;
      }
      const where = `seed ${SEED + 3} case ${i} ${fieldType.kind}`;
      if (fieldType.kind === "int") expect(Number.isSafeInteger(value), where).toBe(true);
      // A float is a number, never NaN; inf only from an overflowing literal (1e400, as pydantic reads it) and no bound.
      if (fieldType.kind === "float")
        expect(
          typeof value === "number" && !Number.isNaN(value) && (Number.isFinite(value) || field.min === undefined),
          where,
        ).toBe(true);
      if (fieldType.kind === "bool") expect(typeof value, where).toBe("boolean");
      if (fieldType.kind === "str") expect(typeof value, where).toBe("string");
      if (fieldType.kind === "list") expect(Array.isArray(value) && value.length <= MAX_LIST_ITEMS, where).toBe(true);
      if (fieldType.kind === "enum") expect(fieldType.values, where).toContain(value);
      if (typeof value === "number" && field.min !== undefined) expect(value >= -10 && value <= 10, where).toBe(true);
      // The run YAML holds the value as data under its own key: nothing in it adds or changes another key.
      const doc = { env: { f: value, total_steps: 2500 } };
      const back = parseYaml(stringify(doc)) as typeof doc;
      expect(Object.keys(back.env).sort(), where).toEqual(["f", "total_steps"]);
      expect(back.env.total_steps, where).toBe(2500);
      expect(JSON.parse(JSON.stringify(back.env.f ?? null)), where).toEqual(JSON.parse(JSON.stringify(value ?? null)));
    }
  });

  it(`button text: ${COUNTS.buttons} argument sets round-trip through commandText and the parser exactly, or are refused`, () => {
    const rng = seeded(SEED + 4);
    const set = COMMANDS.find((c) => c.name === "set")!;
    const stop = COMMANDS.find((c) => c.name === "stop")!;
    const logs = COMMANDS.find((c) => c.name === "logs")!;
    for (let i = 0; i < COUNTS.buttons; i++) {
      const word = () => hostileWord(rng).slice(0, 300);
      const lines = int(rng, 300);
      const [command, args, expected] = pick(rng, [
        [set, { field: word(), value: word() }],
        [stop, { run: word() }],
        [logs, { run: word(), component: word(), lines: String(lines) }, { lines }],
      ] as Array<[typeof set, Record<string, string>, Record<string, number>?]>);
      let text: string;
      try {
        text = commandText(command, args);
      } catch (err) {
        expectRlError(err, new Set(["USAGE"]), `seed ${SEED + 4} case ${i}`);
        continue;
      }
      const parsed = parseCommandText(text, COMMANDS);
      expect(parsed.command, `seed ${SEED + 4} case ${i}`).toBe(command);
      expect(parsed.args, `seed ${SEED + 4} case ${i}: ${JSON.stringify(text)}`).toEqual({ ...args, ...expected });
    }
  });
});
