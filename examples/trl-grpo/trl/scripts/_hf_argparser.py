"""HfArgumentParser: argparse options generated from dataclass fields, as transformers' (and TRL's copy) builds them.

`--name value` and `--name=value` (also with dashes for underscores); a bool takes yes/no, true/false, t/f, y/n, 1/0
or no value (True), and a True default gets a `--no_name`; `X | None` takes none/null for None (except str); a list
takes one or more values. A bad value is argparse's error (usage, then `error: argument --x: invalid int value`, exit
2); arguments no field takes are a ValueError naming them.
"""

import dataclasses
import sys
import types
from argparse import ArgumentDefaultsHelpFormatter, ArgumentParser, ArgumentTypeError
from typing import Any, Callable, Iterable, Union, get_type_hints


def string_to_bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    if v.lower() in ("yes", "true", "t", "y", "1"):
        return True
    if v.lower() in ("no", "false", "f", "n", "0"):
        return False
    raise ArgumentTypeError(
        f"Truthy value expected: got {v} but expected one of yes/no, true/false, t/f, y/n, 1/0 (case insensitive)."
    )


def _accept_none(inner: Callable[[str], Any]) -> Callable[[str], Any]:
    def parse(v: str) -> Any:
        return None if v.lower() in ("none", "null") else inner(v)

    parse.__name__ = getattr(inner, "__name__", "value")
    return parse


def _is_union(tp: Any) -> bool:
    origin = getattr(tp, "__origin__", None)
    return origin is Union or isinstance(tp, types.UnionType)


class HfArgumentParser(ArgumentParser):
    def __init__(self, dataclass_types: Any = None, **kwargs: Any) -> None:
        if dataclass_types is None:
            dataclass_types = []
        elif dataclasses.is_dataclass(dataclass_types):
            dataclass_types = [dataclass_types]
        kwargs.setdefault("formatter_class", ArgumentDefaultsHelpFormatter)
        super().__init__(**kwargs)
        self.dataclass_types = list(dataclass_types)
        for dtype in self.dataclass_types:
            hints = get_type_hints(dtype)
            for f in dataclasses.fields(dtype):
                if f.init:
                    self._add_field(f, hints[f.name])

    def _add_field(self, f: dataclasses.Field, tp: Any) -> None:
        options = [f"--{f.name}"] + ([f"--{f.name.replace('_', '-')}"] if "_" in f.name else [])
        kwargs: dict = {k: v for k, v in f.metadata.items() if k == "help"}
        accepts_none = False
        if _is_union(tp):
            args = tp.__args__
            if type(None) not in args:
                tp = args[0] if args[1] is str else args[1]
            elif bool not in args:
                tp = next(a for a in args if a is not type(None))
                accepts_none = tp is not str
        has_default = f.default is not dataclasses.MISSING
        if tp is bool or tp == (bool | None):
            kwargs["type"] = string_to_bool
            if tp is bool or (f.default is not None and has_default):
                kwargs["default"] = False if not has_default else f.default
                kwargs["nargs"] = "?"
                kwargs["const"] = True
            elif has_default:
                kwargs["default"] = f.default
        elif getattr(tp, "__origin__", None) is list:
            kwargs["type"] = tp.__args__[0]
            kwargs["nargs"] = "+"
            if f.default_factory is not dataclasses.MISSING:
                kwargs["default"] = f.default_factory()
            elif not has_default:
                kwargs["required"] = True
            else:
                kwargs["default"] = f.default
        else:
            base = tp if isinstance(tp, type) and tp in (int, float, str) else str
            kwargs["type"] = _accept_none(base) if accepts_none else base
            if has_default:
                kwargs["default"] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                kwargs["default"] = f.default_factory()
            else:
                kwargs["required"] = True
        self.add_argument(*options, **kwargs)
        if f.default is True and (tp is bool or tp == (bool | None)):
            self.add_argument(
                f"--no_{f.name}", f"--no-{f.name.replace('_', '-')}", action="store_false", dest=f.name, default=False
            )

    def parse_args_into_dataclasses(self, args: Iterable[str] | None = None, return_remaining_strings: bool = False):
        namespace, remaining_args = self.parse_known_args(args=list(args) if args is not None else sys.argv[1:])
        outputs = []
        for dtype in self.dataclass_types:
            keys = {f.name for f in dataclasses.fields(dtype) if f.init}
            inputs = {k: v for k, v in vars(namespace).items() if k in keys}
            for k in keys:
                delattr(namespace, k)
            outputs.append(dtype(**inputs))
        if len(namespace.__dict__) > 0:
            outputs.append(namespace)
        if return_remaining_strings:
            return (*outputs, remaining_args)
        if remaining_args:
            raise ValueError(f"Some specified arguments are not used by the HfArgumentParser: {remaining_args}")
        return (*outputs,)
