// The cheap look at a file before parsing it: a file with a `class` statement that mentions BaseEnv may hold an
// environment whatever the other files say, so it is parsed at once. Any other is left unparsed until a parsed file
// reaches it (../scanning/parse-reached-files.ts): by its module name, by one of its class names, or because it
// mentions a name a parsed file binds (a base it may derive from, or re-export under another name). What that needs
// is kept here. Conservative: words in strings and comments count as much as code.

/** A file that can wait: its class names, and every identifier it mentions. */
export interface Skimmed {
  kind: "unreached";
  classNames: readonly string[];
  identifiers: readonly string[];
}

const CLASS = Buffer.from("class");
const BASE_ENV = "BaseEnv";
const IDENTIFIER = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/gu;
const CLASS_STATEMENT = /(?<![\p{L}\p{N}_])class[\s\\]+([\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*)/gu;
const decoder = new TextDecoder("utf-8");

/** Bytes that can continue an identifier (ASCII only: a non-ASCII neighbour counts as "maybe a class"). */
function isIdentifierByte(byte: number | undefined): boolean {
  return (
    byte !== undefined &&
    ((byte >= 0x30 && byte <= 0x39) ||
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      byte === 0x5f)
  );
}

/** After the keyword: white space, or a backslash continuing the line. */
function isKeywordEnd(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0c || byte === 0x5c || byte === 0x0a || byte === 0x0d;
}

function hasClassKeyword(buffer: Buffer): boolean {
  for (let at = buffer.indexOf(CLASS); at >= 0; at = buffer.indexOf(CLASS, at + CLASS.length)) {
    if (!isIdentifierByte(at > 0 ? buffer[at - 1] : undefined) && isKeywordEnd(buffer[at + CLASS.length])) return true;
  }
  return false;
}

/** "parse" for a file that may define an environment by itself; otherwise what deciding later needs. */
export function skimPythonFile(bytes: Uint8Array): "parse" | Skimmed {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hasClass = hasClassKeyword(buffer);
  // Any occurrence, even inside a longer word: when in doubt, parse.
  if (hasClass && buffer.includes(BASE_ENV)) return "parse";
  // Undecodable bytes become U+FFFD, which no identifier contains: the words around them still count.
  const text = decoder.decode(bytes);
  const classNames = new Set<string>();
  if (hasClass) for (const match of text.matchAll(CLASS_STATEMENT)) classNames.add(match[1]!);
  return { kind: "unreached", classNames: [...classNames], identifiers: [...new Set(text.match(IDENTIFIER) ?? [])] };
}
