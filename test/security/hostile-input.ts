// A tiny seeded generator of hostile input: unicode of every kind, quotes, flags, huge numbers, nested JSON, control characters, long words.
import { COMMANDS } from "../../commands/index.ts";
import { SEED_LOCKED_FIELDS } from "../../src/locked-fields.ts";

export type Rng = () => number;

export const int = (rng: Rng, max: number): number => Math.floor(rng() * max);
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)]!;

const NAMES = [
  ...COMMANDS.map((c) => c.name),
  ...COMMANDS.flatMap((c) => (c.toolName ? [c.toolName] : [])),
  "rl",
  "/rl",
  "RL",
  "Stop",
  "SELECT",
  "ｓｔｏｐ",
];
const FIELDS = [
  ...Object.keys(SEED_LOCKED_FIELDS.env),
  "label",
  "note",
  "count",
  "ratio",
  "flag",
  "mode",
  "tags",
  "extra",
  "anything",
  "env.total_steps",
  "tinker.lora_rank",
  "openai.0.base_url",
  "__proto__",
  "constructor",
];
const FLAGS = [
  "--",
  "--all",
  "--steps",
  "--limit",
  "--lines",
  "--models",
  "--group-size",
  "--group_size",
  "--base-url",
  "--n",
  "--x=",
  "--steps=3",
  "--all=maybe",
  "—all",
  "-",
  "--__proto__",
  "--constructor",
];
const QUOTES = ['"', "'", "“", "”", "‘", "’", "`", '\\"', "\\'"];
const SPACES = [" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u2028", "\u3000", "\u200b", "\ufeff"];
const NUMBERS = [
  "0",
  "-0",
  "1",
  "-1",
  "3",
  "8",
  "200",
  "201",
  "1e309",
  "-1e309",
  "1e-400",
  "NaN",
  "Infinity",
  "0x10",
  "1_000",
  "9".repeat(400),
  "9007199254740993",
  "1.5",
  ".5",
  "5.",
  "+7",
  "١٢٣",
  "８",
];
const JSONISH = [
  "{",
  "}",
  "[",
  "]",
  ":",
  ",",
  "{}",
  "[]",
  '{"a":1}',
  "[1,2,3]",
  "null",
  "true",
  "false",
  '{"total_steps": 5}',
  "{total_steps: 5}",
  "- a",
  "*alias",
  "&anchor",
  "!!python/object/apply:os.system ['id']",
  "---",
  "...",
  "$(id)",
  "`id`",
  "; rm -rf /",
  "| cat /etc/passwd",
  "${HOME}",
  "%s%n",
  "../../etc/passwd",
];
const UNICODE = [
  "\u202e",
  "\u202d",
  "\u2066",
  "\u200d",
  "\u0301",
  "\u0435",
  "\u043e",
  "\u0455",
  "\uff54",
  "\ud83d\ude80",
  "\ud800",
  "\udfff",
  "\u{10ffff}",
  "\ufffd",
  "İ",
  "ß",
  "ǅ",
  "\u0000",
  "\u0007",
  "\u001b[31m",
  "\u007f",
  "\u0085",
];

/** One random code point, from anywhere in Unicode (lone surrogates included). */
function anyChar(rng: Rng): string {
  const r = rng();
  if (r < 0.4) return String.fromCharCode(32 + int(rng, 95));
  if (r < 0.5) return String.fromCharCode(int(rng, 32));
  if (r < 0.8) return String.fromCharCode(int(rng, 0x10000));
  return String.fromCodePoint(0x10000 + int(rng, 0x100000));
}

/** A word: a known name, a flag, a quote, a number, a JSON fragment, unicode tricks, random characters, or a very long run. */
export function hostileWord(rng: Rng, nesting = 2): string {
  switch (int(rng, 11)) {
    case 0:
      return pick(rng, NAMES);
    case 1:
      return pick(rng, FIELDS);
    case 2:
      return pick(rng, FLAGS);
    case 3:
      return pick(rng, QUOTES);
    case 4:
      return pick(rng, NUMBERS);
    case 5:
      return pick(rng, JSONISH);
    case 6:
      return pick(rng, UNICODE);
    case 7:
      return pick(rng, QUOTES) + hostileWord(rng, 0) + (rng() < 0.7 ? pick(rng, QUOTES) : "");
    case 8:
      return pick(rng, ["x", "'", '"', "—", "{", "9", "\u202e"]).repeat(1 + int(rng, rng() < 0.1 ? 9_000 : 300));
    case 9:
      return nesting > 0 ? (JSON.stringify(hostileJson(rng, 3, nesting - 1)) ?? "null") : pick(rng, JSONISH);
    default:
      return Array.from({ length: 1 + int(rng, 12) }, () => anyChar(rng)).join("");
  }
}

/** A command line: sometimes /rl and a real command, then hostile words with hostile spacing. */
export function hostileText(rng: Rng): string {
  const words = Array.from({ length: int(rng, 8) }, () => hostileWord(rng));
  const head = rng() < 0.7 ? [pick(rng, ["/rl", "rl", "/RL", "", "/rl\u00a0"]), pick(rng, NAMES)] : [];
  return [...head, ...words].map((w) => w + pick(rng, SPACES)).join("");
}

/** A JSON-ish value, nested up to `depth`, with hostile keys and strings; occasionally not JSON at all (Infinity, undefined). */
export function hostileJson(rng: Rng, depth: number, nesting = 1): unknown {
  const r = rng();
  if (depth <= 0 || r < 0.33) {
    return pick(rng, [
      () => hostileWord(rng, nesting),
      () => Number(pick(rng, NUMBERS)),
      () => rng() * 1e6 - 5e5,
      () => int(rng, 1000),
      () => rng() < 0.5,
      () => null,
      () => undefined,
      () => Number.MAX_SAFE_INTEGER + 2,
    ])();
  }
  // A long list holds only small values, so a case stays a few thousand nodes at most.
  if (r < 0.4) return Array.from({ length: 250 + int(rng, 20) }, () => hostileJson(rng, 0, 0));
  if (r < 0.65) return Array.from({ length: int(rng, 6) }, () => hostileJson(rng, depth - 1, nesting));
  const out: Record<string, unknown> = {};
  for (let i = int(rng, 6); i > 0; i--) {
    const key =
      rng() < 0.5
        ? pick(rng, [
            ...FIELDS,
            "field",
            "value",
            "name",
            "run",
            "steps",
            "models",
            "n",
            "action",
            "component",
            "lines",
            "all",
            "limit",
          ])
        : hostileWord(rng, 0);
    Object.defineProperty(out, key, {
      value: hostileJson(rng, depth - 1, nesting),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
