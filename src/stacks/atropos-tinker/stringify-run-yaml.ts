// Serialises a run config as YAML that PyYAML (YAML 1.1) reads back with every value and type the bot meant.
import { Document, isScalar, Scalar, visit, type ToStringOptions } from "yaml";
import { formatYaml11Float, pyyamlPlainType } from "./pyyaml-plain-type.ts";

// JS has one number type: whole numbers below 1e21 print as ints, every other number must look like a float to PyYAML.
const PYYAML_FLOAT =
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+][0-9]+)?$|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/;

/**
 * Characters PyYAML will not take as they are: its reader refuses non-printable ones (C0/C1 controls but tab and
 * line feed, DEL, U+FFFE/U+FFFF, lone surrogates), and it treats U+0085, U+2028 and U+2029 as line breaks (folded
 * to a space or a newline outside double quotes). A BOM is dropped at the start of a stream. In double quotes they
 * are written as escapes.
 */
// eslint-disable-next-line no-control-regex
const PYYAML_SPECIAL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\uFEFF\uFFFE\uFFFF\uD800-\uDFFF\r\t]/;

// The same characters but tab, which double quotes keep as it is; the yaml package leaves some of them raw.
// eslint-disable-next-line no-control-regex
const PYYAML_UNESCAPED = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029\uFEFF\uFFFE\uFFFF\uD800-\uDFFF]/g;
const NAMED_ESCAPES: Record<string, string> = { "\u0085": "\\N", "\u2028": "\\L", "\u2029": "\\P" };

/** A YAML double-quoted escape for one character PyYAML would refuse or read as a line break. */
function escapeForPyyaml(char: string): string {
  const code = char.charCodeAt(0);
  return (
    NAMED_ESCAPES[char] ??
    (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`)
  );
}

const isFloatLike = (value: unknown): value is number =>
  typeof value === "number" && (!Number.isInteger(value) || Math.abs(value) >= 1e21);

export function stringifyRunYaml(value: unknown, options: ToStringOptions = {}): string {
  const doc = new Document(value, {
    version: "1.1",
    // A `<<` value is text to the bot; as a merge key the package would write it bare, which PyYAML refuses.
    merge: false,
    customTags: (tags) => [
      {
        identify: isFloatLike,
        default: true,
        tag: "tag:yaml.org,2002:float",
        // Among several matching number tags the package keeps those with a test; this one must stay in.
        test: PYYAML_FLOAT,
        resolve: (text: string) => Number(text),
        stringify: ({ value: number }) => formatYaml11Float(Number(number)),
      },
      ...(Array.isArray(tags) ? tags : []).filter(
        (tag) => typeof tag === "string" || tag.tag !== "tag:yaml.org,2002:merge",
      ),
    ],
  });
  // The yaml package's 1.1 schema quotes nearly every ambiguous string; PyYAML's resolvers are the final word
  // (it leaves `<<` and `=` plain, which PyYAML's safe loader refuses).
  visit(doc, {
    Scalar(_key, node: Scalar) {
      if (
        isScalar(node) &&
        typeof node.value === "string" &&
        (pyyamlPlainType(node.value) !== "str" || PYYAML_SPECIAL.test(node.value))
      )
        node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // Only double-quoted scalars can hold these (every string with one was made one above), so any left raw is
  // inside one, where an escape means the same character.
  return doc.toString(options).replace(PYYAML_UNESCAPED, (char) => (char === "\n" ? char : escapeForPyyaml(char)));
}
