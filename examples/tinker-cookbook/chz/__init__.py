"""A tiny stand-in for openai/chz: immutable config classes and a `key=value` command line.

What it covers (the subset tinker-cookbook recipes use):
  @chz.chz              keyword-only, immutable class from annotated fields with defaults
  chz.field(...)        default=, default_factory=, doc=, munger=
  chz.entrypoint(Cls)   builds Cls from argv `key=value` (nested `parent.child=value`),
                        casting each value by its annotation the way chz does
  chz.asdict / chz.replace / chz.is_chz
On a bad command line it prints `Error:` and chz's message to stderr and exits 1; `--help`
prints the fields and exits 1, as chz does. An argument without `=` raises ValueError.
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import sys
import types
import typing
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["chz", "field", "entrypoint", "asdict", "replace", "is_chz", "EntrypointException"]

_MISSING: Any = object()
_FIELDS = "__chz_fields__"


class EntrypointException(Exception):
    """A command line chz refuses (printed as `Error:` + message, exit 1)."""


class _HelpRequested(EntrypointException):
    pass


class CastError(Exception):
    pass


class _Field:
    def __init__(self, default: Any, default_factory: Any, doc: str, munger: Optional[Callable[[Any, Any], Any]]):
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("Cannot specify both default and default_factory")
        self.name = ""
        self.annotation: Any = Any
        self.default = default
        self.default_factory = default_factory
        self.doc = doc
        self.munger = munger

    @property
    def required(self) -> bool:
        return self.default is _MISSING and self.default_factory is _MISSING

    def make_default(self) -> Any:
        if self.default_factory is not _MISSING:
            return self.default_factory()
        return self.default


def field(
    *,
    default: Any = _MISSING,
    default_factory: Any = _MISSING,
    doc: str = "",
    munger: Optional[Callable[[Any, Any], Any]] = None,
) -> Any:
    """A field with a default (or a factory for one), a help text and an optional munger(self, value)."""
    return _Field(default, default_factory, doc, munger)


def is_chz(obj: Any) -> bool:
    return hasattr(obj if isinstance(obj, type) else type(obj), _FIELDS)


def _fields_of(cls: type) -> Dict[str, _Field]:
    return getattr(cls, _FIELDS)


def chz(cls: type) -> type:
    """Turn an annotated class into an immutable, keyword-only config class."""
    hints = typing.get_type_hints(cls)
    fields: Dict[str, _Field] = {}
    for base in reversed(cls.__mro__[1:]):
        if hasattr(base, _FIELDS):
            fields.update(_fields_of(base))
    for name in cls.__dict__.get("__annotations__", {}):
        if name.startswith("_") or typing.get_origin(hints[name]) is typing.ClassVar:
            continue
        raw = cls.__dict__.get(name, _MISSING)
        f = raw if isinstance(raw, _Field) else _Field(raw, _MISSING, "", None)
        if isinstance(raw, (list, dict, set)):
            raise TypeError(f"Mutable default {type(raw).__name__} for field {name} is not allowed: use default_factory")
        f.name = name
        f.annotation = hints[name]
        fields[name] = f
        if raw is not _MISSING and name in cls.__dict__:
            delattr(cls, name)

    def __init__(self: Any, **kwargs: Any) -> None:
        for key in kwargs:
            if key not in fields:
                raise TypeError(f"{cls.__qualname__}.__init__() got an unexpected keyword argument {key!r}")
        for name, f in fields.items():
            if name in kwargs:
                value = kwargs[name]
            elif f.required:
                raise TypeError(f"{cls.__qualname__}.__init__() missing 1 required keyword-only argument: {name!r}")
            else:
                value = f.make_default()
            object.__setattr__(self, name, value)
        for name, f in fields.items():
            if f.munger is not None:
                object.__setattr__(self, name, f.munger(self, getattr(self, name)))
        post_init = getattr(self, "__chz_post_init__", None)
        if post_init is not None:
            post_init()

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"Cannot modify field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"Cannot delete field {name!r}")

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in fields)
        return f"{cls.__qualname__}({inner})"

    def __eq__(self: Any, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in fields)

    def __hash__(self: Any) -> int:
        return hash(tuple(repr(getattr(self, n)) for n in fields))

    setattr(cls, _FIELDS, fields)
    cls.__init__ = __init__  # type: ignore[misc]
    cls.__setattr__ = __setattr__  # type: ignore[assignment]
    cls.__delattr__ = __delattr__  # type: ignore[assignment]
    cls.__repr__ = __repr__  # type: ignore[assignment]
    cls.__eq__ = __eq__  # type: ignore[assignment]
    cls.__hash__ = __hash__  # type: ignore[assignment]
    return cls


def asdict(obj: Any) -> Dict[str, Any]:
    """Fields as a dict, nested chz objects as dicts too."""
    out: Dict[str, Any] = {}
    for name in _fields_of(type(obj)):
        value = getattr(obj, name)
        out[name] = asdict(value) if is_chz(value) and not isinstance(value, type) else value
    return out


def replace(obj: Any, **changes: Any) -> Any:
    values = {name: getattr(obj, name) for name in _fields_of(type(obj))}
    values.update(changes)
    return type(obj)(**values)


# ---------------------------------------------------------------------------
# casting command-line strings by annotation
# ---------------------------------------------------------------------------


def _is_union(t: Any) -> bool:
    origin = typing.get_origin(t)
    return origin is typing.Union or origin is types.UnionType


def type_repr(t: Any) -> str:
    if t is type(None):
        return "None"
    if _is_union(t):
        return " | ".join(type_repr(a) for a in typing.get_args(t))
    if typing.get_origin(t) is typing.Literal:
        return "Literal[" + ", ".join(repr(a) for a in typing.get_args(t)) + "]"
    if isinstance(t, type):
        return t.__qualname__ if t.__module__ in ("builtins", "__main__") else f"{t.__module__}.{t.__qualname__}"
    return repr(t)


def _try_cast(text: str, t: Any) -> Any:
    if _is_union(t):
        # str accepts anything, so chz tries it last
        for arg in sorted(typing.get_args(t), key=lambda a: a is str):
            try:
                return _try_cast(text, arg)
            except CastError:
                pass
        raise CastError(f"Could not cast {text!r} to {type_repr(t)}")
    if t is Any or t is object:
        return text
    if typing.get_origin(t) is typing.Literal:
        for choice in typing.get_args(t):
            try:
                if _try_cast(text, type(choice)) == choice:
                    return choice
            except CastError:
                pass
        raise CastError(f"Could not cast {text!r} to {type_repr(t)}")
    if t is None or t is type(None):
        if text == "None":
            return None
    elif t is bool:
        if text in ("t", "true", "True", "1"):
            return True
        if text in ("f", "false", "False", "0"):
            return False
    elif t is str:
        return text
    elif t in (int, float):
        try:
            return t(text)
        except ValueError:
            pass
    raise CastError(f"Could not cast {text!r} to {type_repr(t)}")


def _factory_failure(text: str, t: Any) -> str:
    if _is_union(t):
        return f"Could not produce a union instance from {text!r}"
    if isinstance(t, type) and not is_chz(t):
        return f"No subclass of {type_repr(t)} named {text!r}"
    return f"Could not produce a {type_repr(t)} instance from {text!r}"


def _nested_class(t: Any) -> Optional[type]:
    """The chz class a field holds (also through `X | None`), if any."""
    for candidate in typing.get_args(t) if _is_union(t) else (t,):
        if isinstance(candidate, type) and is_chz(candidate):
            return candidate
    return None


# ---------------------------------------------------------------------------
# the entrypoint
# ---------------------------------------------------------------------------


def _param_paths(cls: type, prefix: str = "") -> List[Tuple[str, _Field]]:
    out: List[Tuple[str, _Field]] = []
    for name, f in _fields_of(cls).items():
        out.append((prefix + name, f))
        nested = _nested_class(f.annotation)
        if nested is not None:
            out.extend(_param_paths(nested, prefix + name + "."))
    return out


def _suggest(key: str, paths: List[str]) -> Optional[str]:
    best, best_score = None, 0.1
    parts = key.split(".")
    for path in paths:
        target = path.split(".")
        if len(target) != len(parts):
            continue
        score = 1.0
        for a, b in zip(parts, target):
            ratio = difflib.SequenceMatcher(a=a, b=b).ratio()
            if ratio < 0.6:
                score = 0.0
                break
            score *= ratio
        if score > best_score:
            best, best_score = path, score
    return best


def _extraneous_message(cls: type, key: str, paths: Dict[str, _Field]) -> str:
    extra = " (from command line)"
    suggestion = _suggest(key, list(paths))
    if suggestion is not None:
        extra = f"\nDid you mean {suggestion!r}?"
    parts = key.split(".")
    if len(parts) >= 2:
        ancestor = next((".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1) if ".".join(parts[:i]) in paths), None)
        if ancestor is None:
            extra += f"\nNo param found matching {parts[0]!r}"
        else:
            f = paths[ancestor]
            shown = f"{f.make_default()!r}" if not f.required else "unset"
            extra += (
                f"\n\nParam {ancestor!r} is closest valid ancestor"
                f"\nParam {ancestor!r} is set to {shown} (default)"
                f"\nSubparam {parts[len(ancestor.split('.'))]!r} does not exist on it"
            )
    return f"Extraneous argument {key!r} to Blueprint for {cls.__qualname__}{extra}\nAppend --help to your command to see valid arguments"


def _help_text(cls: type) -> str:
    out = io.StringIO()
    print(f"Entry point: {cls.__qualname__}", file=out)
    doc = (cls.__doc__ or "").strip()
    if doc:
        print(file=out)
        for line in doc.splitlines():
            print(f"  {line.strip()}", file=out)
    print(file=out)
    print("Arguments:", file=out)
    rows = []
    for path, f in _param_paths(cls):
        default = "-" if f.required else f"{f.make_default()!r} (default)"
        rows.append((path, type_repr(f.annotation), default, f.doc))
    widths = [max(len(r[i]) for r in rows) for i in range(3)] if rows else [0, 0, 0]
    for row in rows:
        line = "  " + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:3])) + "  " + row[3]
        print(line.rstrip(), file=out)
    return out.getvalue()


def _build(cls: type, values: Dict[str, Any], prefix: str = "") -> Any:
    kwargs: Dict[str, Any] = {}
    for name, f in _fields_of(cls).items():
        path = prefix + name
        if path in values:
            kwargs[name] = values[path]
            continue
        nested = _nested_class(f.annotation)
        if nested is not None and any(k.startswith(path + ".") for k in values):
            kwargs[name] = _build(nested, values, path + ".")
        elif f.required and nested is not None:
            kwargs[name] = _build(nested, values, path + ".")
    return cls(**kwargs)


def _make_from_argv(cls: type, argv: List[str]) -> Any:
    if "--help" in argv:
        raise _HelpRequested(_help_text(cls))
    paths = dict(_param_paths(cls))
    values: Dict[str, Any] = {}
    for arg in argv:
        if "=" not in arg:
            raise ValueError(f"Invalid argument {arg!r}. Specify arguments in the form key=value")
        key, text = arg.split("=", 1)
        if key not in paths:
            raise EntrypointException(_extraneous_message(cls, key, paths))
        f = paths[key]
        try:
            values[key] = _try_cast(text, f.annotation)  # last occurrence wins, as in chz
        except CastError as e:
            raise EntrypointException(
                f"Could not interpret argument {text!r} provided for param {key!r}...\n\n"
                f"- Failed to interpret it as a value:\n{e}\n\n"
                f"- Failed to interpret it as a factory for polymorphic construction:\n{_factory_failure(text, f.annotation)}"
            ) from None
    missing = [p for p, f in paths.items() if f.required and p not in values and _nested_class(f.annotation) is None]
    if missing:
        raise EntrypointException(
            "Missing required arguments for parameter(s): " + ", ".join(missing)
            + "\nAppend --help to your command to see valid arguments"
        )
    return _build(cls, values)


def entrypoint(target: type, *, argv: Optional[List[str]] = None) -> Any:
    """Build `target` from `key=value` arguments (sys.argv[1:] by default); exit 1 on a bad command line."""
    try:
        return _make_from_argv(target, list(sys.argv[1:] if argv is None else argv))
    except EntrypointException as e:
        text = str(e)
        if isinstance(e, _HelpRequested):
            print(text, end="" if text.endswith("\n") else "\n")
        else:
            print("Error:", file=sys.stderr)
            print(text, end="" if text.endswith("\n") else "\n", file=sys.stderr)
        sys.exit(1)
