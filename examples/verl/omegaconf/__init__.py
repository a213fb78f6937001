"""omegaconf stand-in: the part verl and Hydra use. A config is a tree of dicts and lists read from YAML with
OmegaConf's scalar typing; `${a.b}`, `${.x}`/`${..x}` (relative), `${oc.select:key,default}` and
`${oc.env:VAR,default}` interpolations resolve on access (a value that is one interpolation keeps the target's type,
text around one makes a string); `???` is a missing mandatory value. Attribute access to a key the node lacks raises
as a struct config does."""

import copy
import os
import re
from typing import Any, Dict, List, Optional, Union

from omegaconf._yaml import YAMLError, loads, resolve_plain
from omegaconf.errors import (
    ConfigAttributeError,
    ConfigKeyError,
    InterpolationKeyError,
    MissingMandatoryValue,
    OmegaConfBaseException,
)

__all__ = ["DictConfig", "ListConfig", "OmegaConf", "YAMLError", "MISSING"]

MISSING = "???"
_INTERP = re.compile(r"\$\{([^${}]*)\}")


def _full_key(path: List[Union[str, int]]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _node_at(root: Any, path: List[Union[str, int]]) -> Any:
    node = root
    for part in path:
        node = node[part]
    return node


def _select(root: Any, base: List[Union[str, int]], key: str) -> Any:
    """The raw value at `key`: absolute, or relative to base (the node holding the value) with leading dots."""
    if key.startswith("."):
        dots = len(key) - len(key.lstrip("."))
        path = list(base[: len(base) - (dots - 1)]) if dots > 1 else list(base)
        key = key[dots:]
    else:
        path = []
    for part in [p for p in key.split(".") if p]:
        node = _node_at(root, path)
        if isinstance(node, dict) and part in node:
            path.append(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            path.append(int(part))
        else:
            raise InterpolationKeyError(f"Interpolation key '{key}' not found")
    return path


def _resolver_arg(text: str) -> Any:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return resolve_plain(text)


def _interpolate(root: Any, base: List[Union[str, int]], expr: str, depth: int) -> Any:
    if expr.startswith("oc.env:"):
        name, _, default = expr[len("oc.env:"):].partition(",")
        if name.strip() in os.environ:
            return os.environ[name.strip()]
        if default:
            return _resolver_arg(default)
        raise InterpolationKeyError(f"Environment variable '{name.strip()}' not found")
    if expr.startswith("oc.select:"):
        key, _, default = expr[len("oc.select:"):].partition(",")
        try:
            path = _select(root, base, key.strip())
        except InterpolationKeyError:
            return _resolver_arg(default) if default else None
        value = _resolve(root, path, depth + 1)
        return _resolver_arg(default) if value == MISSING and default else value
    if ":" in expr:
        raise OmegaConfBaseException(f"Unsupported interpolation type {expr.split(':', 1)[0]}")
    return _resolve(root, _select(root, base, expr), depth + 1)


def _resolve(root: Any, path: List[Union[str, int]], depth: int = 0) -> Any:
    """The value at path with its interpolations resolved (containers are returned raw)."""
    if depth > 50:
        raise OmegaConfBaseException(f"Recursive interpolation detected at {_full_key(path)}")
    value = _node_at(root, path)
    if not isinstance(value, str) or "${" not in value:
        return value
    base = path[:-1]
    whole = _INTERP.fullmatch(value)
    if whole:
        return _interpolate(root, base, whole.group(1), depth)
    return _INTERP.sub(lambda m: str(_interpolate(root, base, m.group(1), depth)), value)


def _target(root: Any, path: List[Union[str, int]]) -> List[Union[str, int]]:
    """The path a value that is one key interpolation (`${a.b}`, `${.x}`, `${oc.select:a.b,...}`) points at, followed
    through chains; the value's own path otherwise."""
    for _ in range(50):
        value = _node_at(root, path)
        whole = _INTERP.fullmatch(value) if isinstance(value, str) else None
        if whole is None:
            return path
        expr = whole.group(1)
        if expr.startswith("oc.select:"):
            expr = expr[len("oc.select:"):].partition(",")[0].strip()
        elif ":" in expr:
            return path
        try:
            path = _select(root, path[:-1], expr)
        except InterpolationKeyError:
            return path
    return path


class _Node:
    def __init__(self, root: Any, path: List[Union[str, int]]) -> None:
        object.__setattr__(self, "_root", root)
        object.__setattr__(self, "_path", path)

    def _raw(self) -> Any:
        return _node_at(self._root, self._path)

    def _wrap(self, key: Union[str, int]) -> Any:
        path = self._path + [key]
        value = _resolve(self._root, path)
        if value == MISSING:
            raise MissingMandatoryValue(
                f"Missing mandatory value: {_full_key(path)}\n    full_key: {_full_key(path)}\n    object_type=dict"
            )
        if isinstance(value, dict):
            return DictConfig(self._root, _target(self._root, path))
        if isinstance(value, list):
            return ListConfig(self._root, _target(self._root, path))
        return value

    def __len__(self) -> int:
        return len(self._raw())


class DictConfig(_Node):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name not in self._raw():
            path = _full_key(self._path + [name])
            raise ConfigAttributeError(f"Key '{name}' is not in struct\n    full_key: {path}\n    object_type=dict")
        return self._wrap(name)

    def __getitem__(self, key: str) -> Any:
        if key not in self._raw():
            path = _full_key(self._path + [key])
            raise ConfigKeyError(f"Key '{key}' is not in struct\n    full_key: {path}\n    object_type=dict")
        return self._wrap(key)

    def __setattr__(self, name: str, value: Any) -> None:
        self._raw()[name] = value

    def __contains__(self, key: object) -> bool:
        return key in self._raw()

    def get(self, key: str, default: Any = None) -> Any:
        return self._wrap(key) if key in self._raw() else default

    def keys(self):
        return self._raw().keys()

    def items(self):
        return [(k, self._wrap(k)) for k in self._raw()]

    def __iter__(self):
        return iter(self._raw())


class ListConfig(_Node):
    def __getitem__(self, index: int) -> Any:
        return self._wrap(index)

    def __iter__(self):
        return (self._wrap(i) for i in range(len(self._raw())))

    def __contains__(self, item: object) -> bool:
        return item in list(self)


def _container(root: Any, path: List[Union[str, int]], resolve: bool) -> Any:
    value = _resolve(root, path) if resolve else _node_at(root, path)
    if resolve and isinstance(value, (dict, list)):
        path = _target(root, path)
    if isinstance(value, dict):
        return {k: _container(root, path + [k], resolve) for k in value}
    if isinstance(value, list):
        return [_container(root, path + [i], resolve) for i in range(len(value))]
    return value


class OmegaConf:
    @staticmethod
    def load(file: str) -> DictConfig:
        with open(file, encoding="utf-8") as f:
            return DictConfig(loads(f.read()) or {}, [])

    @staticmethod
    def create(obj: Optional[Dict[str, Any]] = None) -> DictConfig:
        return DictConfig(copy.deepcopy(obj or {}), [])

    @staticmethod
    def to_container(cfg: _Node, resolve: bool = False) -> Any:
        return _container(cfg._root, cfg._path, resolve)

    @staticmethod
    def resolve(cfg: _Node) -> None:
        """Replaces every interpolation in cfg by its value, in place (a missing value stays `???`)."""
        resolved = _container(cfg._root, cfg._path, True)
        raw = cfg._raw()
        raw.clear() if isinstance(raw, dict) else None
        raw.update(resolved)
