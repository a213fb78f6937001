// What PyYAML (YAML 1.1, used by the trainer and atroposlib) would make of a plain, unquoted scalar.

// PyYAML's implicit resolvers, as in its resolver.py; a string matching any of them is not read back as a string.
const RESOLVERS: Array<[type: string, pattern: RegExp]> = [
  ["bool", /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/],
  [
    "float",
    /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  ],
  [
    "int",
    /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
  ],
  ["merge", /^<<$/],
  ["null", /^(?:~|null|Null|NULL|)$/],
  [
    "timestamp",
    /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/,
  ],
  ["value", /^=$/],
];

/** The YAML 1.1 type PyYAML gives `text` written unquoted: "str" when it stays text. */
export function pyyamlPlainType(text: string): string {
  for (const [type, pattern] of RESOLVERS) if (pattern.test(text)) return type;
  return "str";
}

/** A number written so PyYAML reads it back as a float: a dot, and a signed exponent when there is one (1.0e-07). */
export function formatYaml11Float(value: number): string {
  if (Number.isNaN(value)) return ".nan";
  if (!Number.isFinite(value)) return value > 0 ? ".inf" : "-.inf";
  const [mantissa = "0", exponent] = String(value).split("e");
  const withDot = mantissa.includes(".") ? mantissa : `${mantissa}.0`;
  if (exponent === undefined) return withDot;
  const sign = exponent.startsWith("-") ? "-" : "+";
  return `${withDot}e${sign}${exponent.replace(/^[-+]/, "").padStart(2, "0")}`;
}
