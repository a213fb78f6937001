"""A small YAML reader (standard library only): a copy of examples/demo-stack/demo_yaml.py, typing plain scalars
as OmegaConf's loader does (PyYAML's YAML 1.1 resolvers, plus floats without a dot such as 1e-6, and no timestamps).

Supported: block mappings and sequences (nested, including the PyYAML style where a
sequence sits at its parent key's indentation), `- key: value` items, plain and
single/double-quoted scalars (also folded over several lines), literal/folded block
scalars (| and >, with chomping indicators), flow collections ([a, b], {a: 1}, {}, []),
`#` comments, a leading `---` / trailing `...`, and plain scalars typed as PyYAML types them
(YAML 1.1): null/~, yes/no/on/off/true/false, ints (0x, 0b, 017 octal, 1_000, 1:30 sexagesimal),
floats only with a dot (1.0e-05; 1e-5 is a string), .inf/.nan, dates and timestamps.
Not supported (rejected with YAMLError): anchors, aliases, tags, multiple documents,
complex keys, tabs in indentation.

    >>> loads("env:\\n  group_size: 8\\nopenai:\\n- base_url: http://x/v1\\n")
    {'env': {'group_size': 8}, 'openai': [{'base_url': 'http://x/v1'}]}
"""

from __future__ import annotations

import datetime
import math
import re
from typing import Any, List, Optional, Tuple

__all__ = ["YAMLError", "loads", "load"]


class YAMLError(ValueError):
    """Raised for malformed or unsupported YAML; the message names the line."""

    def __init__(self, message: str, line: Optional[int] = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


# PyYAML's implicit resolvers (YAML 1.1), which is what the real trainer and atroposlib read run configs with.
_BOOL_RE = re.compile(r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$")
_TRUE_WORDS = ("yes", "true", "on")
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")
_INT_RE = re.compile(
    r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$"
)
_FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
# OmegaConf's extra float resolver (omegaconf/_utils.py get_yaml_loader): an exponent without a dot is a float.
_OMEGACONF_FLOAT_RE = re.compile(r"^[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)$")
_DATE_RE = re.compile(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})$")
_TIMESTAMP_RE = re.compile(
    r"^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?"
    r"(?:[ \t]*(Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?$"
)
_KEY_END_RE = re.compile(r":(\s|$)")

_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
    "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
    "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}


def _sexagesimal(text: str, kind: type) -> Any:
    sign = -1 if text.startswith("-") else 1
    value: Any = 0
    for part in text.lstrip("+-").split(":"):
        value = value * 60 + kind(part)
    return sign * value


def _resolve_int(text: str) -> int:
    value = text.replace("_", "")
    sign = -1 if value.startswith("-") else 1
    value = value.lstrip("+-")
    if ":" in value:
        return sign * _sexagesimal(value, int)
    if value.startswith("0b"):
        return sign * int(value[2:], 2)
    if value.startswith("0x"):
        return sign * int(value[2:], 16)
    if value != "0" and value.startswith("0"):
        return sign * int(value, 8)
    return sign * int(value)


def _resolve_float(text: str) -> float:
    value = text.replace("_", "").lower()
    sign = -1.0 if value.startswith("-") else 1.0
    value = value.lstrip("+-")
    if value == ".inf":
        return sign * math.inf
    if value == ".nan":
        return math.nan
    if ":" in value:
        return sign * _sexagesimal(value, float)
    return sign * float(value)


def _resolve_timestamp(text: str) -> Any:
    date = _DATE_RE.match(text)
    if date:
        return datetime.date(int(date[1]), int(date[2]), int(date[3]))
    m = _TIMESTAMP_RE.match(text)
    if m is None:
        return None
    fraction = int((m[7] or "0")[:6].ljust(6, "0"))
    tz = None
    if m[8] == "Z":
        tz = datetime.timezone.utc
    elif m[8]:
        hours, _, minutes = m[8][1:].partition(":")
        delta = datetime.timedelta(hours=int(hours), minutes=int(minutes or 0))
        tz = datetime.timezone(-delta if m[8][0] == "-" else delta)
    parts = [int(m[i]) for i in range(1, 7)]
    return datetime.datetime(*parts, fraction, tzinfo=tz)


def resolve_plain(text: str) -> Any:
    """Type a plain (unquoted) scalar as PyYAML does (YAML 1.1): yes/off are booleans, 1e-7 is a string."""
    if _NULL_RE.match(text):
        return None
    if _BOOL_RE.match(text):
        return text.lower() in _TRUE_WORDS
    if _INT_RE.match(text):
        return _resolve_int(text)
    if _FLOAT_RE.match(text):
        return _resolve_float(text)
    if _OMEGACONF_FLOAT_RE.match(text):
        return float(text.replace("_", ""))
    if text in ("<<", "="):
        # PyYAML's safe loader has no constructor for a merge key or a value indicator used as a value.
        raise YAMLError(f"could not determine a constructor for the plain scalar {text!r}")
    return text


def _indent_of(line: str, lineno: int) -> int:
    stripped = line.lstrip(" ")
    if stripped.startswith("\t"):
        raise YAMLError("tab characters are not allowed in indentation", lineno)
    return len(line) - len(stripped)


def _strip_comment(text: str) -> str:
    """Remove a trailing ` # comment` from a line fragment, ignoring # inside quotes."""
    quote: Optional[str] = None
    i = 0
    while i < len(text):
        ch = text[i]
        if quote == "'":
            if ch == "'":
                if i + 1 < len(text) and text[i + 1] == "'":
                    i += 1
                else:
                    quote = None
        elif quote == '"':
            if ch == "\\":
                i += 1
            elif ch == '"':
                quote = None
        elif ch in ("'", '"') and (i == 0 or text[i - 1] in " \t[{,:-"):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
        i += 1
    return text.rstrip()


def _is_blank(line: str) -> bool:
    s = line.strip()
    return s == "" or s.startswith("#")


class _Parser:
    def __init__(self, text: str):
        if text.startswith("\ufeff"):
            text = text[1:]
        self.lines: List[str] = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.pos = 0
        self._strip_document_markers()

    # -- document markers -------------------------------------------------
    def _strip_document_markers(self) -> None:
        seen_start = False
        for i, line in enumerate(self.lines):
            if line.startswith("%"):
                raise YAMLError("directives are not supported", i + 1)
            if line == "---" or line.startswith("--- "):
                if seen_start or any(not _is_blank(x) for x in self.lines[:i]):
                    raise YAMLError("multiple documents are not supported", i + 1)
                seen_start = True
                rest = line[3:].strip()
                self.lines[i] = rest if rest and not rest.startswith("#") else ""
            elif line == "..." or line.startswith("... "):
                if any(not _is_blank(x) for x in self.lines[i + 1:]):
                    raise YAMLError("content after document end is not supported", i + 1)
                self.lines = self.lines[:i]
                return

    # -- helpers ----------------------------------------------------------
    def _skip_blank(self) -> None:
        while self.pos < len(self.lines) and _is_blank(self.lines[self.pos]):
            self.pos += 1

    def _peek(self) -> Optional[Tuple[int, str]]:
        """(indent, content) of the next meaningful line, without consuming it."""
        self._skip_blank()
        if self.pos >= len(self.lines):
            return None
        line = self.lines[self.pos]
        ind = _indent_of(line, self.pos + 1)
        return ind, line[ind:]

    # -- entry ------------------------------------------------------------
    def parse(self) -> Any:
        head = self._peek()
        if head is None:
            return None
        ind, _ = head
        value = self._parse_node(ind)
        tail = self._peek()
        if tail is not None:
            raise YAMLError("unexpected content (bad indentation?)", self.pos + 1)
        return value

    def _parse_node(self, ind: int) -> Any:
        """Parse the block node whose first line is at indentation `ind`."""
        head = self._peek()
        assert head is not None
        _, content = head
        if content == "-" or content.startswith("- "):
            return self._parse_seq(ind)
        if self._split_key(content) is not None:
            return self._parse_map(ind)
        # a bare scalar or flow collection filling the node
        self.pos += 1
        return self._scalar_value(content, ind - 1, self.pos)

    # -- mappings ---------------------------------------------------------
    def _split_key(self, content: str) -> Optional[Tuple[str, str]]:
        """Split `key: rest` -> (key, rest) or None when the line is not a mapping entry."""
        if content[:1] in ('"', "'"):
            end = _find_quote_end(content, 0)
            if end is None:
                return None
            after = content[end + 1:]
            stripped = after.lstrip(" ")
            if not (stripped == ":" or stripped.startswith(": ")):
                return None
            key = _unquote(content[: end + 1], self.pos + 1)
            return key, stripped[1:].strip()
        if content[:1] in ("[", "{", "&", "*", "!", "|", ">", "%", "@", "`", "?"):
            if content[:1] in ("&", "*", "!"):
                raise YAMLError("anchors, aliases and tags are not supported", self.pos + 1)
            if content[:1] == "?":
                raise YAMLError("complex keys are not supported", self.pos + 1)
            return None
        if content.startswith("#"):
            return None
        m = _KEY_END_RE.search(content)
        if m is None:
            return None
        key = content[: m.start()].rstrip()
        if " #" in key or not key:
            return None
        return key, content[m.start() + 1:].strip()

    def _parse_map(self, ind: int) -> dict:
        result: dict = {}
        while True:
            head = self._peek()
            if head is None:
                break
            line_ind, content = head
            if line_ind < ind:
                break
            if line_ind > ind:
                raise YAMLError("unexpected indentation", self.pos + 1)
            split = self._split_key(content)
            if split is None:
                raise YAMLError(f"expected 'key: value', got {content.strip()!r}", self.pos + 1)
            key, rest = split
            lineno = self.pos + 1
            if key in result:
                raise YAMLError(f"duplicate key {key!r}", lineno)
            self.pos += 1
            rest = _strip_comment(rest)
            if rest == "":
                nxt = self._peek()
                if nxt is not None and nxt[0] > ind:
                    result[key] = self._parse_node(nxt[0])
                elif nxt is not None and nxt[0] == ind and (nxt[1] == "-" or nxt[1].startswith("- ")):
                    # PyYAML writes a mapping's sequence at the key's own indentation
                    result[key] = self._parse_seq(ind)
                else:
                    result[key] = None
            else:
                result[key] = self._scalar_value(rest, ind, lineno)
        return result

    # -- sequences --------------------------------------------------------
    def _parse_seq(self, ind: int) -> list:
        result: list = []
        while True:
            head = self._peek()
            if head is None:
                break
            line_ind, content = head
            if line_ind < ind:
                break
            if line_ind > ind:
                raise YAMLError("unexpected indentation", self.pos + 1)
            if not (content == "-" or content.startswith("- ")):
                break  # end of a PyYAML-style sequence under a mapping key
            lineno = self.pos + 1
            rest = content[1:]
            item_text = rest.lstrip(" ")
            if _strip_comment(item_text) == "":
                self.pos += 1
                nxt = self._peek()
                if nxt is not None and nxt[0] > ind:
                    result.append(self._parse_node(nxt[0]))
                else:
                    result.append(None)
                continue
            # Re-read the item as a node that starts at the column after "- ".
            col = ind + 1 + (len(rest) - len(item_text))
            if item_text == "-" or item_text.startswith("- ") or self._split_key(item_text) is not None:
                self.lines[self.pos] = " " * col + item_text
                result.append(self._parse_node(col))
            else:
                self.pos += 1
                result.append(self._scalar_value(_strip_comment(item_text), ind, lineno))
        return result

    # -- scalars ----------------------------------------------------------
    def _continuation_lines(self, parent_ind: int) -> List[str]:
        """Consume following lines that continue a multi-line scalar (more indented than the parent)."""
        out: List[str] = []
        while self.pos < len(self.lines):
            line = self.lines[self.pos]
            if line.strip() == "":
                out.append("")
                self.pos += 1
                continue
            ind = _indent_of(line, self.pos + 1)
            if ind <= parent_ind or line[ind:].startswith("#"):
                break
            out.append(line[ind:])
            self.pos += 1
        while out and out[-1] == "":
            out.pop()
            self.pos -= 1
        return out

    def _scalar_value(self, text: str, parent_ind: int, lineno: int) -> Any:
        first = text[:1]
        if first in ("&", "*", "!"):
            raise YAMLError("anchors, aliases and tags are not supported", lineno)
        if first in ("|", ">"):
            return self._block_scalar(text, parent_ind, lineno)
        if first in ('"', "'"):
            raw = text
            while _find_quote_end(raw, 0) is None:
                if self.pos >= len(self.lines):
                    raise YAMLError("unterminated quoted string", lineno)
                nxt = self.lines[self.pos]
                self.pos += 1
                raw += "\n" + nxt
            end = _find_quote_end(raw, 0)
            assert end is not None
            tail = _strip_comment(raw[end + 1:]).strip()
            if tail:
                raise YAMLError(f"unexpected text after quoted string: {tail!r}", lineno)
            return _unquote(raw[: end + 1], lineno)
        if first in ("[", "{"):
            raw = text
            while True:
                try:
                    value, end = _FlowParser(raw, lineno).parse()
                except _NeedMore:
                    if self.pos >= len(self.lines):
                        raise YAMLError("unterminated flow collection", lineno)
                    raw += " " + _strip_comment(self.lines[self.pos].strip())
                    self.pos += 1
                    continue
                if raw[end:].strip():
                    raise YAMLError(f"unexpected text after flow collection: {raw[end:].strip()!r}", lineno)
                return value
        # plain scalar, possibly folded over more-indented lines
        if text.startswith("- ") or text == "-" or text.startswith("? "):
            raise YAMLError("a block sequence cannot start on a key's line", lineno)
        parts = [_strip_comment(text).strip()]
        if self.pos < len(self.lines) and parts[0] == text.strip():
            cont = self._continuation_lines(parent_ind)
            for c in cont:
                if _KEY_END_RE.search(c) and not c.startswith(("'", '"')):
                    raise YAMLError(f"unexpected mapping entry {c.strip()!r} (bad indentation?)", lineno)
            parts.extend(_strip_comment(c) if c else "" for c in cont)
        if len(parts) == 1:
            return resolve_plain(parts[0])
        return _fold(parts)

    def _block_scalar(self, header: str, parent_ind: int, lineno: int) -> str:
        header = _strip_comment(header)
        style = header[0]
        chomp = "clip"
        explicit: Optional[int] = None
        for ch in header[1:]:
            if ch == "-":
                chomp = "strip"
            elif ch == "+":
                chomp = "keep"
            elif ch.isdigit() and ch != "0":
                explicit = int(ch)
            else:
                raise YAMLError(f"bad block scalar header {header!r}", lineno)
        raw: List[str] = []
        block_ind: Optional[int] = parent_ind + explicit if explicit is not None and parent_ind >= 0 else explicit
        while self.pos < len(self.lines):
            line = self.lines[self.pos]
            if line.strip() == "":
                raw.append("")
                self.pos += 1
                continue
            ind = len(line) - len(line.lstrip(" "))
            if block_ind is None:
                if ind <= parent_ind:
                    break
                block_ind = ind
            if ind < block_ind:
                break
            raw.append(line[block_ind:])
            self.pos += 1
        # trailing blank lines belong to chomping, and the parser resumes at them
        trailing = 0
        while raw and raw[-1] == "":
            raw.pop()
            trailing += 1
        self.pos -= trailing
        if style == "|":
            body = "\n".join(raw)
        else:
            body = _fold_block(raw)
        if not raw:
            return "" if chomp != "keep" else "\n" * trailing
        if chomp == "strip":
            return body
        if chomp == "keep":
            return body + "\n" + "\n" * trailing
        return body + "\n"


def _fold(parts: List[str], escapable: bool = False) -> str:
    """Join the lines of a multi-line flow scalar: a line break becomes a space, each empty line
    a newline. The last part is always content (for a quoted scalar it may be empty).
    With `escapable` (double quotes), a line ending in an odd number of backslashes joins the
    next one without a space."""
    out = parts[0]
    pending = 0
    for i, part in enumerate(parts[1:], 1):
        if part == "" and i != len(parts) - 1:
            pending += 1
            continue
        trailing = len(out) - len(out.rstrip("\\"))
        if escapable and pending == 0 and trailing % 2 == 1:
            out = out[:-1]
        else:
            out += "\n" * pending if pending else " "
        out += part
        pending = 0
    return out


def _fold_block(lines: List[str]) -> str:
    """Fold the lines of a `>` block scalar: breaks between normal lines become spaces,
    empty lines become newlines, and more-indented lines keep their breaks."""
    out: List[str] = []
    started = False
    prev_more = False
    blank = 0
    for line in lines:
        if line == "":
            blank += 1
            continue
        more = line[0] in " \t"
        if not started:
            out.append("\n" * blank)
        elif more or prev_more:
            out.append("\n" * (blank + 1))
        else:
            out.append("\n" * blank if blank else " ")
        out.append(line)
        started = True
        prev_more = more
        blank = 0
    return "".join(out)


def _find_quote_end(text: str, start: int) -> Optional[int]:
    q = text[start]
    i = start + 1
    while i < len(text):
        ch = text[i]
        if q == '"' and ch == "\\":
            i += 2
            continue
        if ch == q:
            if q == "'" and i + 1 < len(text) and text[i + 1] == "'":
                i += 2
                continue
            return i
        i += 1
    return None


def _unquote(token: str, lineno: int) -> str:
    q = token[0]
    body = token[1:-1]
    # fold line breaks inside quoted scalars
    if "\n" in body:
        pieces = body.split("\n")
        first = pieces[0].rstrip(" \t")
        if q == '"' and (len(pieces[0]) - len(pieces[0].rstrip("\\"))) % 2 == 1:
            first = pieces[0]  # an escaped line break keeps the spaces before it
        segments = [first] + [p.strip(" \t") for p in pieces[1:-1]] + [pieces[-1].lstrip(" \t")]
        body = _fold(segments, escapable=(q == '"'))
    if q == "'":
        return body.replace("''", "'")
    out: List[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(body):
            raise YAMLError("dangling backslash in double-quoted string", lineno)
        esc = body[i + 1]
        if esc in _ESCAPES:
            out.append(_ESCAPES[esc])
            i += 2
        elif esc in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[esc]
            digits = body[i + 2: i + 2 + width]
            if len(digits) != width or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                raise YAMLError(f"bad escape \\{esc}{digits}", lineno)
            out.append(chr(int(digits, 16)))
            i += 2 + width
        else:
            raise YAMLError(f"unknown escape \\{esc}", lineno)
    return "".join(out)


class _NeedMore(Exception):
    """The flow collection continues on the next line."""


class _FlowParser:
    def __init__(self, text: str, lineno: int):
        self.text = text
        self.i = 0
        self.lineno = lineno

    def parse(self) -> Tuple[Any, int]:
        value = self._value()
        return value, self.i

    def _ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t\n":
            self.i += 1

    def _value(self) -> Any:
        self._ws()
        if self.i >= len(self.text):
            raise _NeedMore()
        ch = self.text[self.i]
        if ch == "[":
            return self._seq()
        if ch == "{":
            return self._map()
        if ch in ('"', "'"):
            end = _find_quote_end(self.text, self.i)
            if end is None:
                raise _NeedMore()
            token = self.text[self.i: end + 1]
            self.i = end + 1
            return _unquote(token, self.lineno)
        if ch in ("&", "*", "!"):
            raise YAMLError("anchors, aliases and tags are not supported", self.lineno)
        start = self.i
        while self.i < len(self.text):
            c = self.text[self.i]
            if c in ",]}":
                break
            if c == ":" and (self.i + 1 >= len(self.text) or self.text[self.i + 1] in " ,]}"):
                break
            if c == "#" and self.text[self.i - 1] in " \t":
                break
            self.i += 1
        return resolve_plain(self.text[start: self.i].strip())

    def _seq(self) -> list:
        self.i += 1
        out: list = []
        while True:
            self._ws()
            if self.i >= len(self.text):
                raise _NeedMore()
            if self.text[self.i] == "]":
                self.i += 1
                return out
            out.append(self._value())
            self._ws()
            if self.i >= len(self.text):
                raise _NeedMore()
            if self.text[self.i] == ",":
                self.i += 1
            elif self.text[self.i] != "]":
                raise YAMLError(f"expected ',' or ']' in flow sequence at {self.text[self.i:]!r}", self.lineno)

    def _map(self) -> dict:
        self.i += 1
        out: dict = {}
        while True:
            self._ws()
            if self.i >= len(self.text):
                raise _NeedMore()
            if self.text[self.i] == "}":
                self.i += 1
                return out
            key = self._value()
            self._ws()
            if self.i < len(self.text) and self.text[self.i] == ":":
                self.i += 1
                value = self._value()
            else:
                value = None
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                raise YAMLError("complex keys are not supported", self.lineno)
            out[key if isinstance(key, str) else str(key)] = value
            self._ws()
            if self.i >= len(self.text):
                raise _NeedMore()
            if self.text[self.i] == ",":
                self.i += 1
            elif self.text[self.i] != "}":
                raise YAMLError(f"expected ',' or '}}' in flow mapping at {self.text[self.i:]!r}", self.lineno)


def loads(text: str) -> Any:
    """Parse one YAML document from a string."""
    return _Parser(text).parse()


def load(path: str) -> Any:
    """Parse the YAML file at `path` (UTF-8)."""
    with open(path, "r", encoding="utf-8") as f:
        return loads(f.read())


if __name__ == "__main__":  # pragma: no cover - handy for tests: print a YAML file as JSON
    import json
    import sys

    try:
        src = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
        print(json.dumps(loads(src), sort_keys=False, allow_nan=True, default=str))
    except YAMLError as e:
        print(f"YAMLError: {e}", file=sys.stderr)
        sys.exit(2)
