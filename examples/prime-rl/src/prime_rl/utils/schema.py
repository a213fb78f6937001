"""The config classes' schema, read from their pydantic source with `ast` (the miniature never imports pydantic):
each class's fields, annotation, default and Field(ge=/gt=) bounds, and a lax validation of raw TOML/CLI data in
pydantic v2's manner (its messages, its coercions: "3" -> 3, "true" -> True, "None" -> None; extra keys refused).
Model validators are not read from the source: prime_rl.entrypoints.rl applies RLConfig's and ResumeConfig's."""

import ast
import copy
import os
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Dict, List, Optional, Tuple

_MISSING = object()
_BOOL_WORDS = {"0": False, "off": False, "f": False, "false": False, "n": False, "no": False,
               "1": True, "on": True, "t": True, "true": True, "y": True, "yes": True}


@dataclass
class Spec:
    kinds: List[Any]  # "int" "float" "str" "bool" "path" "dict" ("literal", values) ("model", name) ("list", Spec)
    optional: bool = False
    default: Any = _MISSING
    ge: Optional[float] = None
    gt: Optional[float] = None


@dataclass
class Schema:
    classes: Dict[str, Dict[str, Spec]] = field(default_factory=dict)

    def default_of(self, spec: Spec) -> Any:
        d = spec.default
        if isinstance(d, tuple) and d and d[0] == "model":
            return self.validate(d[1], {}, ())[0]
        if isinstance(d, list):
            return [self.validate(x[1], {}, ())[0] if isinstance(x, tuple) else x for x in d]
        return copy.deepcopy(d)

    def validate(self, cls: str, data: Any, loc: Tuple) -> Tuple[Any, List[Tuple[Tuple, str, Any]]]:
        """(the dumped value, errors as (loc, message, input))."""
        if not isinstance(data, dict):
            return None, [(loc, f"Input should be a valid dictionary or instance of {cls}", data)]
        data = {k: (None if v == "None" else v) for k, v in data.items()}
        fields = self.classes[cls]
        out: Dict[str, Any] = {}
        errors: List[Tuple[Tuple, str, Any]] = []
        for name, spec in fields.items():
            if name not in data:
                if spec.default is _MISSING:
                    errors.append((loc + (name,), "Field required", data))
                else:
                    out[name] = self.default_of(spec)
                continue
            value, errs = self.value(spec, data[name], loc + (name,))
            out[name] = value
            errors.extend(errs)
        for name in data:
            if name not in fields:
                errors.append((loc + (name,), "Extra inputs are not permitted", data[name]))
        return out, errors

    def value(self, spec: Spec, v: Any, loc: Tuple) -> Tuple[Any, List]:
        if v is None:
            return (None, []) if spec.optional else (None, [(loc, self._none_message(spec), v)])
        first_error = None
        for kind in spec.kinds:
            result, err = self._one(kind, v, loc)
            if err is None:
                bound = self._bounds(spec, result, loc)
                return result, bound
            first_error = first_error or err
        return None, first_error

    def _none_message(self, spec: Spec) -> str:
        kind = spec.kinds[0]
        if isinstance(kind, tuple) and kind[0] == "model":
            return f"Input should be a valid dictionary or instance of {kind[1]}"
        return {"int": "Input should be a valid integer", "float": "Input should be a valid number",
                "str": "Input should be a valid string", "bool": "Input should be a valid boolean",
                "path": "Input is not a valid path"}.get(kind if isinstance(kind, str) else "", "Input should not be None")

    def _bounds(self, spec: Spec, value: Any, loc: Tuple) -> List:
        if spec.ge is not None and isinstance(value, (int, float)) and value < spec.ge:
            return [(loc, f"Input should be greater than or equal to {spec.ge:g}", value)]
        if spec.gt is not None and isinstance(value, (int, float)) and value <= spec.gt:
            return [(loc, f"Input should be greater than {spec.gt:g}", value)]
        return []

    def _one(self, kind: Any, v: Any, loc: Tuple) -> Tuple[Any, Optional[List]]:
        if kind == "int":
            if isinstance(v, bool) or isinstance(v, int):
                return int(v), None
            if isinstance(v, float):
                return (int(v), None) if v.is_integer() else (None, [(loc, "Input should be a valid integer, got a number with a fractional part", v)])
            if isinstance(v, str):
                try:
                    return int(v.strip()), None
                except ValueError:
                    return None, [(loc, "Input should be a valid integer, unable to parse string as an integer", v)]
            return None, [(loc, "Input should be a valid integer", v)]
        if kind == "float":
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return float(v), None
            if isinstance(v, str):
                try:
                    return float(v.strip()), None
                except ValueError:
                    return None, [(loc, "Input should be a valid number, unable to parse string as a number", v)]
            return None, [(loc, "Input should be a valid number", v)]
        if kind == "bool":
            if isinstance(v, bool):
                return v, None
            if isinstance(v, int) and v in (0, 1):
                return bool(v), None
            if isinstance(v, str) and v.lower() in _BOOL_WORDS:
                return _BOOL_WORDS[v.lower()], None
            return None, [(loc, "Input should be a valid boolean, unable to interpret input", v)]
        if kind == "str":
            return (v, None) if isinstance(v, str) else (None, [(loc, "Input should be a valid string", v)])
        if kind == "path":
            return (str(PurePosixPath(v)), None) if isinstance(v, str) else (None, [(loc, "Input is not a valid path", v)])
        if kind == "dict":
            return (dict(v), None) if isinstance(v, dict) else (None, [(loc, "Input should be a valid dictionary", v)])
        if kind[0] == "literal":
            if v in kind[1]:
                return v, None
            expected = " or ".join(repr(x).replace('"', "'") for x in kind[1])
            return None, [(loc, f"Input should be {expected}", v)]
        if kind[0] == "model":
            value, errs = self.validate(kind[1], v, loc)
            return value, (errs or None)
        if kind[0] == "list":
            if not isinstance(v, list):
                return None, [(loc, "Input should be a valid list", v)]
            out, errs = [], []
            for i, item in enumerate(v):
                value, e = self.value(kind[1], item, loc + (i,))
                out.append(value)
                errs.extend(e)
            return out, (errs or None)
        raise ValueError(f"unknown kind {kind}")


def _annotation(node: ast.AST, spec: Spec) -> None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        _annotation(node.left, spec)
        _annotation(node.right, spec)
    elif isinstance(node, ast.Constant) and node.value is None:
        spec.optional = True
    elif isinstance(node, ast.Name):
        names = {"int": "int", "float": "float", "str": "str", "bool": "bool", "Path": "path", "dict": "dict"}
        spec.kinds.append(names.get(node.id, ("model", node.id)))
    elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        if node.value.id == "Literal":
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            spec.kinds.append(("literal", [ast.literal_eval(e) for e in elts]))
        elif node.value.id == "list":
            inner = Spec([])
            _annotation(node.slice, inner)
            spec.kinds.append(("list", inner))
        elif node.value.id == "dict":
            spec.kinds.append("dict")
        else:
            raise ValueError(f"unsupported annotation {ast.dump(node)}")
    else:
        raise ValueError(f"unsupported annotation {ast.dump(node)}")


def _default(node: ast.AST, spec: Spec) -> None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "Field":
            if node.args:
                _default(node.args[0], spec)
            for kw in node.keywords:
                if kw.arg == "default":
                    _default(kw.value, spec)
                elif kw.arg == "default_factory" and isinstance(kw.value, ast.Name):
                    spec.default = ("model", kw.value.id) if kw.value.id not in ("list", "dict") else (
                        [] if kw.value.id == "list" else {})
                elif kw.arg in ("ge", "gt"):
                    setattr(spec, kw.arg, ast.literal_eval(kw.value))
            return
        if node.func.id == "Path":
            spec.default = ast.literal_eval(node.args[0]) if node.args else "."
            return
        spec.default = ("model", node.func.id)
        return
    if isinstance(node, ast.List) and all(isinstance(e, ast.Call) for e in node.elts):
        spec.default = [("model", e.func.id) for e in node.elts]  # type: ignore[attr-defined]
        return
    spec.default = ast.literal_eval(node)


def read_schema(folder: str) -> Schema:
    schema = Schema()
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=name)
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef):
                continue
            fields: Dict[str, Spec] = {}
            for base in cls.bases:
                if isinstance(base, ast.Name) and base.id in schema.classes:
                    fields.update(copy.deepcopy(schema.classes[base.id]))
            for stmt in cls.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    spec = Spec([])
                    _annotation(stmt.annotation, spec)
                    if stmt.value is not None:
                        _default(stmt.value, spec)
                    fields[stmt.target.id] = spec
            schema.classes[cls.name] = fields
    return schema
