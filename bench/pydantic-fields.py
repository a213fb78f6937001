"""The fields of a pydantic config class as the real pydantic (2.x) sees them, nested models flattened to a.b, with
each entry file's TOML values laid over their defaults: the independent reader of prime-rl's configs.
Usage: PYTHONPATH=... python3 pydantic-fields.py module.Class FILE.toml ...  ->  {file: {name: default}}
A default computed when the config is built (a factory, a model instance) is "<computed>"; none is "<required>"."""
import enum
import importlib
import json
import sys
import tomllib
import types
import typing
from pathlib import PurePath

from pydantic import BaseModel
from pydantic_core import PydanticUndefined


def model_of(annotation):
    """The model class a field holds (X, X | None, Optional[X], Annotated[X, ...]), or None."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return model_of(args[0])
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return model_of(options[0]) if len(options) == 1 else None
    return None


class Computed(Exception):
    """A default holding a model: built when the config is."""


def plain(value):
    if isinstance(value, BaseModel):
        raise Computed()
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def walk(cls, prefix, out, depth=0):
    for name, info in cls.model_fields.items():
        full = prefix + name
        if info.default_factory is not None or isinstance(info.default, BaseModel):
            out[full] = "<computed>"
        elif info.default is PydanticUndefined:
            out[full] = "<required>"
        else:
            try:
                out[full] = plain(info.default)
            except Computed:
                out[full] = "<computed>"
        nested = model_of(info.annotation)
        if nested is not None and depth < 6:
            walk(nested, full + ".", out, depth + 1)


def leaves(table, prefix, out):
    for key, value in table.items():
        name = prefix + key
        if isinstance(value, dict) and value:
            leaves(value, name + ".", out)
        else:
            out[name] = json.loads(json.dumps(value, default=str))


def main():
    module, _, name = sys.argv[1].rpartition(".")
    fields = {}
    walk(getattr(importlib.import_module(module), name), "", fields)
    result = {}
    for file in sys.argv[2:]:
        values = {}
        with open(file, "rb") as f:
            leaves(tomllib.load(f), "", values)
        result[file] = {**fields, **values}
    print(json.dumps(result))


main()
