"""pydantic_config's `cli` for the miniature: `@ file.toml` (several, merged in order; `--a.b @ file.toml` nests one),
then `--a.b value`, `--a.b=value`, bare `--flag` / `--no-flag` for booleans, bare `--section` to turn on an optional
section (`--ckpt`, `--resume`), lists as several values or JSON, dicts as JSON; field names kebab-cased
(`--max-steps`, not `--max_steps`). Unknown flags get difflib's "did you mean", and every error is printed in
pydantic_config's box on stderr, exit 1. TOML is read with tomllib; validation is ../utils/schema.py's."""

import copy
import difflib
import json
import shutil
import sys
import tomllib
from typing import Any, Dict, List, Optional, Set, Tuple

from prime_rl.utils.schema import Schema, Spec


class ConfigFileError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def deep_merge(base: dict, override: dict) -> dict:
    result = copy.deepcopy(base)
    for key, value in override.items():
        if key in result and isinstance(result[key], dict) and isinstance(value, dict):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def _nest(path: str, value: Any) -> dict:
    for part in reversed(path.split(".")):
        value = {part: value}
    return value


def load_config_file(path: str) -> dict:
    if not path.endswith(".toml"):
        raise ConfigFileError(f"Unsupported file type: {path}. Supported: .toml")
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ConfigFileError(f"Config file not found: {path}")
    except tomllib.TOMLDecodeError as e:
        raise ConfigFileError(f"Invalid TOML in {path}: {e}")


def _walk(schema: Schema, cls: str, prefix: str, leaves: Dict[str, Tuple[str, Spec]], optional: Set[str], interior: Set[str], snake: str) -> None:
    for name, spec in schema.classes[cls].items():
        kebab = f"{prefix}.{name.replace('_', '-')}" if prefix else name.replace("_", "-")
        snake_path = f"{snake}.{name}" if snake else name
        models = [k for k in spec.kinds if isinstance(k, tuple) and k[0] == "model"]
        if models and spec.optional:
            optional.add(kebab)
        if models:
            if not spec.optional:
                interior.add(kebab)
            _walk(schema, models[0][1], kebab, leaves, optional, interior, snake_path)
        else:
            leaves[kebab] = (snake_path, spec)


def _is_bool(spec: Spec) -> bool:
    return spec.kinds == ["bool"]


def _is_list(spec: Spec) -> bool:
    return any(isinstance(k, tuple) and k[0] == "list" for k in spec.kinds)


def parse(schema: Schema, cls: str, args: List[str]) -> dict:
    """The merged raw config (files, then the command line) for `cls`; raises ConfigFileError."""
    toml: dict = {}
    rest: List[str] = []
    i = 0
    while i < len(args):
        if args[i] == "@":
            if i + 1 >= len(args):
                raise ConfigFileError("@ must be followed by a config file path")
            toml = deep_merge(toml, load_config_file(args[i + 1]))
            i += 2
        elif args[i].startswith("--") and i + 2 < len(args) + 1 and i + 1 < len(args) and args[i + 1] == "@":
            if i + 2 >= len(args):
                raise ConfigFileError(f"@ after {args[i]} must be followed by a config file path")
            toml = deep_merge(toml, _nest(args[i][2:].replace("-", "_"), load_config_file(args[i + 2])))
            i += 3
        else:
            rest.append(args[i])
            i += 1
    leaves: Dict[str, Tuple[str, Spec]] = {}
    optional: Set[str] = set()
    interior: Set[str] = set()
    _walk(schema, cls, "", leaves, optional, interior, "")
    overrides: dict = {}
    unknown: List[str] = []
    remaining: List[str] = []
    i = 0
    while i < len(rest):
        token = rest[i]
        if not token.startswith("--"):
            remaining.append(token)
            i += 1
            continue
        flag, eq, eq_value = token[2:].partition("=")
        value: Optional[str] = eq_value if eq else None
        follower = rest[i + 1] if i + 1 < len(rest) and not rest[i + 1].startswith("--") else None
        if flag in optional and value is None and follower is None:
            overrides = deep_merge(overrides, _nest(flag.replace("-", "_"), {}))
            i += 1
            continue
        if flag.startswith("no-") and flag[3:] in leaves and _is_bool(leaves[flag[3:]][1]):
            overrides = deep_merge(overrides, _nest(leaves[flag[3:]][0], False))
            i += 1
            continue
        if flag in interior:
            subs = sorted(p for p in leaves if p.startswith(flag + "."))[:5]
            hint = f" Try one of: {', '.join('--' + p for p in subs)}" if subs else ""
            raise ConfigFileError(f"--{flag} is a config group, not a leaf field.{hint}")
        if flag not in leaves:
            unknown.append(flag)
            i += 2 if value is None and follower is not None else 1
            continue
        snake, spec = leaves[flag]
        if _is_bool(spec):
            literal = {"true": True, "True": True, "1": True, "false": False, "False": False, "0": False}
            if value is not None:
                overrides = deep_merge(overrides, _nest(snake, literal.get(value, value)))
                i += 1
            elif follower in literal:
                overrides = deep_merge(overrides, _nest(snake, literal[follower]))
                i += 2
            else:
                overrides = deep_merge(overrides, _nest(snake, True))
                i += 1
            continue
        if _is_list(spec) and value is None:
            j = i + 1
            values: List[Any] = []
            while j < len(rest) and not rest[j].startswith("--"):
                values.append(rest[j])
                j += 1
            if len(values) == 1 and values[0][:1] == "[":
                values = json.loads(values[0])
            overrides = deep_merge(overrides, _nest(snake, values))
            i = max(j, i + 1)
            continue
        if value is None:
            if follower is None:
                raise ConfigFileError(f"--{flag} requires a value")
            value = follower
            i += 1
        overrides = deep_merge(overrides, _nest(snake, json.loads(value) if "dict" in spec.kinds and value[:1] == "{" else value))
        i += 1
    if unknown:
        lines = ["Unrecognized command-line option(s):"]
        for flag in unknown:
            near = difflib.get_close_matches(flag, sorted(leaves), n=3, cutoff=0.6)
            lines.append(f"  --{flag}   (did you mean {', '.join('--' + s for s in near)}?)" if near else f"  --{flag}")
        raise ConfigFileError("\n".join(lines))
    if remaining:
        raise ConfigFileError(f"Unrecognized arguments: {' '.join(remaining)}")
    return deep_merge(toml, overrides)


def _flag(loc: Tuple) -> str:
    if not loc:
        return "<root>"
    parts: List[str] = []
    for segment in loc:
        if isinstance(segment, int):
            parts[-1] = f"{parts[-1]}[{segment}]" if parts else f"[{segment}]"
        else:
            parts.append(str(segment).replace("_", "-"))
    return "--" + ".".join(parts)


def format_errors(title: str, errors: List[Tuple[Tuple, str, Any]]) -> str:
    count = len(errors)
    lines = [f"Failed to validate config: {count} validation error{'s' if count != 1 else ''} for {title}"]
    for loc, msg, value in errors:
        suffix = f" (got {value!r})" if value is not None and not isinstance(value, (dict, list)) else ""
        lines += [_flag(loc), f"  {msg}{suffix}"]
    return "\n".join(lines)


def print_error_box_and_exit(message: str) -> None:
    """pydantic_config's box: the terminal's width (COLUMNS, else 80 when not a terminal), words re-wrapped."""
    width = max(40, shutil.get_terminal_size().columns)
    inner = width - 4

    def wrap(text: str) -> List[str]:
        lines, current = [], ""
        for word in text.split():
            if not current:
                current = word
            elif len(current) + 1 + len(word) <= inner:
                current += " " + word
            else:
                lines.append(current)
                current = word
        return lines + [current] if current else (lines or [""])

    def row(text: str) -> str:
        return f"│ {text}{' ' * (inner - len(text))} │"

    title = "Config file error"
    out = [f"╭─ {title} " + "─" * (width - len(title) - 5) + "╮"]
    if "Failed to validate config" in message and ": " in message:
        head, body = message.split(": ", 1)
        out += [row(line) for line in wrap(head + ":")]
        out.append(row("─" * inner))
        for line in body.split("\n"):
            if not line:
                continue
            if "validation error" in line:
                out += [row(x) for x in wrap(line)]
            elif not line.startswith(" "):
                out += [row(x) for x in wrap(f"  {line}")]
            else:
                out += [row(x) for x in wrap(f"    {line.strip()}")]
    else:
        out += [row(line) for line in wrap(message)]
    out.append("╰" + "─" * (width - 2) + "╯")
    sys.stderr.write("\n".join(out) + "\n")
    sys.exit(1)
