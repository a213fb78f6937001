"""A pydantic-like config model in the standard library: `Field(...)` and `ConfigModel`.

Fields are class-level annotated attributes, as with pydantic:

    class MyConfig(ConfigModel):
        size: int = Field(default=4, description="How many", ge=1)
        name: Optional[str] = None

The keyword constructor rejects unknown names, coerces values the way pydantic's lax
mode does for the types the demo uses (int, float, bool, str, Optional/Union, Literal,
Enum, List[...], Dict[...]), and checks ge/gt/le/lt bounds.
"""

from __future__ import annotations

import copy
import enum
import json
import types
import typing
from typing import Any, ClassVar, Dict, List, Optional, Tuple

__all__ = ["Field", "FieldInfo", "ConfigModel", "ValidationError", "coerce", "parse_cli_value", "MISSING"]


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FieldInfo:
    """What `Field(...)` returns: a default plus metadata."""

    def __init__(
        self,
        default: Any = MISSING,
        *,
        default_factory: Optional[typing.Callable[[], Any]] = None,
        description: Optional[str] = None,
        ge: Optional[float] = None,
        gt: Optional[float] = None,
        le: Optional[float] = None,
        lt: Optional[float] = None,
        title: Optional[str] = None,
        examples: Optional[List[Any]] = None,
        **extra: Any,
    ):
        if default is not MISSING and default_factory is not None:
            raise TypeError("cannot give both default and default_factory")
        if default is Ellipsis:
            default = MISSING
        self.default = default
        self.default_factory = default_factory
        self.description = description
        self.ge, self.gt, self.le, self.lt = ge, gt, le, lt
        self.title = title
        self.examples = examples
        self.extra = extra
        self.annotation: Any = Any
        self.name = ""

    def is_required(self) -> bool:
        return self.default is MISSING and self.default_factory is None

    def get_default(self) -> Any:
        if self.default_factory is not None:
            return self.default_factory()
        return copy.deepcopy(self.default)

    def __repr__(self) -> str:
        return f"FieldInfo(annotation={_type_name(self.annotation)}, default={self.default!r}, description={self.description!r})"


def Field(default: Any = MISSING, **kwargs: Any) -> Any:  # noqa: N802 - mirrors pydantic.Field
    """Declare a config field with a default and metadata (description, ge, gt, le, lt)."""
    return FieldInfo(default, **kwargs)


class ValidationError(ValueError):
    """Raised by a ConfigModel constructor; `errors` lists (field, message) pairs."""

    def __init__(self, model: str, errors: List[Tuple[str, str]]):
        self.model = model
        self.errors = errors
        lines = [f"{len(errors)} validation error(s) for {model}"]
        lines += [f"  {name}: {msg}" for name, msg in errors]
        super().__init__("\n".join(lines))


def _type_name(tp: Any) -> str:
    if isinstance(tp, type):
        return tp.__name__
    return str(tp).replace("typing.", "")


_TRUE = {"true", "1", "yes", "on", "y", "t"}
_FALSE = {"false", "0", "no", "off", "n", "f"}


def coerce(value: Any, tp: Any) -> Any:
    """Convert `value` to type `tp` or raise ValueError with a readable message."""
    if tp is Any or tp is object:
        return value
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        if value is None and type(None) in args:
            return None
        errors = []
        # exact type first (like pydantic's smart mode), then lax conversions
        for arg in args:
            if arg is type(None):
                continue
            if isinstance(arg, type) and type(value) is arg:
                return value
        for arg in args:
            if arg is type(None):
                continue
            try:
                return coerce(value, arg)
            except ValueError as e:
                errors.append(str(e))
        raise ValueError(f"expected {_type_name(tp)}, got {value!r}")
    if origin is typing.Literal:
        for arg in args:
            if value == arg and type(value) is type(arg):
                return arg
        for arg in args:
            if isinstance(value, str) and str(arg) == value:
                return arg
        raise ValueError(f"expected one of {', '.join(repr(a) for a in args)}, got {value!r}")
    if origin in (list, List, typing.Sequence) or tp in (list, List):
        inner = args[0] if args else Any
        if isinstance(value, str):
            value = _split_list_text(value)
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"expected a list, got {value!r}")
        return [coerce(v, inner) for v in value]
    if origin in (dict, Dict) or tp in (dict, Dict):
        kt, vt = (args + (Any, Any))[:2] if args else (Any, Any)
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError as e:
                raise ValueError(f"expected a JSON object, got {value!r}") from e
        if not isinstance(value, dict):
            raise ValueError(f"expected a mapping, got {value!r}")
        return {coerce(k, kt): coerce(v, vt) for k, v in value.items()}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        if isinstance(value, tp):
            return value
        for member in tp:
            if value == member.value or value == member.name:
                return member
        raise ValueError(f"expected one of {', '.join(repr(m.value) for m in tp)}, got {value!r}")
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise ValueError(f"expected a boolean, got {value!r}")
    if tp is int:
        if isinstance(value, bool):
            raise ValueError(f"expected an integer, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise ValueError(f"expected an integer, got {value!r}")
    if tp is float:
        if isinstance(value, bool):
            raise ValueError(f"expected a number, got {value!r}")
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value.strip())
            except ValueError:
                pass
        raise ValueError(f"expected a number, got {value!r}")
    if tp is str:
        if isinstance(value, str):
            return value
        if isinstance(value, enum.Enum) and isinstance(value.value, str):
            return value.value
        raise ValueError(f"expected a string, got {value!r}")
    if isinstance(tp, type):
        if isinstance(value, tp):
            return value
        if issubclass(tp, ConfigModel) and isinstance(value, dict):
            return tp(**value)
        raise ValueError(f"expected {tp.__name__}, got {value!r}")
    return value


def _split_list_text(text: str) -> List[Any]:
    text = text.strip()
    if text.startswith("["):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"expected a JSON list, got {text!r}") from e
        if not isinstance(parsed, list):
            raise ValueError(f"expected a list, got {text!r}")
        return parsed
    if text == "":
        return []
    return [part.strip() for part in text.split(",")]


def _allows_none(tp: Any) -> bool:
    origin = typing.get_origin(tp)
    return tp is Any or ((origin is typing.Union or origin is types.UnionType) and type(None) in typing.get_args(tp))


def parse_cli_value(raw: str, tp: Any) -> Any:
    """Turn a command-line string into a value of `tp` ("none"/"null" mean None where allowed)."""
    if _allows_none(tp) and raw.strip().lower() in ("none", "null", "~"):
        return None
    return coerce(raw, tp)


class ConfigModel:
    """Base class of config models; subclasses declare annotated fields."""

    model_fields: ClassVar[Dict[str, FieldInfo]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        hints = typing.get_type_hints(cls)
        fields: Dict[str, FieldInfo] = {}
        for klass in reversed(cls.__mro__):
            for name in klass.__dict__.get("__annotations__", {}):
                if name.startswith("_") or name in ("model_fields",):
                    continue
                tp = hints.get(name, Any)
                if typing.get_origin(tp) is ClassVar:
                    continue
                fields.pop(name, None)
                fields[name] = FieldInfo()  # placeholder keeps declaration order
        for name in list(fields):
            raw = MISSING
            for klass in cls.__mro__:
                if name in klass.__dict__:
                    raw = klass.__dict__[name]
                    break
            info = copy.copy(raw) if isinstance(raw, FieldInfo) else FieldInfo(raw)
            info.annotation = hints.get(name, Any)
            info.name = name
            fields[name] = info
        cls.model_fields = fields

    def __init__(self, **data: Any) -> None:
        cls = type(self)
        errors: List[Tuple[str, str]] = []
        unknown = [k for k in data if k not in cls.model_fields]
        for k in unknown:
            errors.append((k, f"unknown field for {cls.__name__}"))
        values: Dict[str, Any] = {}
        for name, info in cls.model_fields.items():
            if name in data:
                raw = data[name]
            elif info.is_required():
                errors.append((name, "field required"))
                continue
            else:
                raw = info.get_default()
            try:
                value = coerce(raw, info.annotation)
                _check_bounds(value, info)
            except ValueError as e:
                errors.append((name, str(e)))
                continue
            values[name] = value
        if errors:
            raise ValidationError(cls.__name__, errors)
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        if not name.startswith("_") and name not in type(self).model_fields:
            raise ValueError(f'"{type(self).__name__}" object has no field "{name}"')
        object.__setattr__(self, name, value)

    def model_dump(self, mode: str = "python") -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for name in type(self).model_fields:
            value = copy.deepcopy(getattr(self, name))
            if mode == "json":
                value = _jsonable(value)
            out[name] = value
        return out

    def model_copy(self, update: Optional[Dict[str, Any]] = None) -> "ConfigModel":
        data = self.model_dump()
        data.update(update or {})
        return type(self)(**data)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.model_dump() == other.model_dump()  # type: ignore[union-attr]

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).model_fields)
        return f"{type(self).__name__}({inner})"


def _check_bounds(value: Any, info: FieldInfo) -> None:
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    if info.ge is not None and not value >= info.ge:
        raise ValueError(f"must be >= {info.ge}, got {value!r}")
    if info.gt is not None and not value > info.gt:
        raise ValueError(f"must be > {info.gt}, got {value!r}")
    if info.le is not None and not value <= info.le:
        raise ValueError(f"must be <= {info.le}, got {value!r}")
    if info.lt is not None and not value < info.lt:
        raise ValueError(f"must be < {info.lt}, got {value!r}")


def _jsonable(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, ConfigModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value
