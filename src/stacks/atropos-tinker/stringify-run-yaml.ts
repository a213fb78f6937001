// Serialises a run config as YAML that PyYAML (YAML 1.1) reads back with every value and type the bot meant.
import { Document, isScalar, Scalar, visit, type ToStringOptions } from "yaml";
import { formatYaml11Float, pyyamlPlainType } from "./pyyaml-plain-type.ts";

// JS has one number type: whole numbers below 1e21 print as ints, every other number must look like a float to PyYAML.
const PYYAML_FLOAT =
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+][0-9]+)?$|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/;

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
      if (isScalar(node) && typeof node.value === "string" && pyyamlPlainType(node.value) !== "str")
        node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString(options);
}
