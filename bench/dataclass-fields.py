"""The fields of dataclasses as Python's own `ast` reads their source (the independent reader of TRL's config
classes; nothing imported or run), bases first, each entry's YAML recipe (PyYAML) laid over the defaults.
Usage: dataclass-fields.py ROOT module.Class[,module.Class...] RECIPE.yaml ...  ->  {recipe: {name: default}}
A default computed when the config is built (default_factory, a call) is "<computed>"; none is "<required>"."""
import ast
import json
import os
import sys

import yaml

ROOT = sys.argv[1]
trees = {}


def module_file(module):
    base = os.path.join(ROOT, *module.split("."))
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


def parsed(path):
    if path not in trees:
        with open(path, encoding="utf-8") as f:
            trees[path] = ast.parse(f.read())
    return trees[path]


def package_of(path):
    rel = os.path.relpath(path, ROOT)[: -len(".py")].split(os.sep)
    return rel[:-1] if rel[-1] != "__init__" else rel[:-1]


def find_class(path, name, depth=0):
    """(file, ClassDef) for `name` as bound in `path`: defined there or imported from the checkout."""
    if depth > 10 or path is None:
        return None
    tree = parsed(path)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return path, node
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) != name:
                    continue
                pkg = package_of(path)
                parts = pkg[: len(pkg) - node.level + 1] if node.level else []
                module = ".".join(parts + ([node.module] if node.module else []))
                found = module_file(module)
                sub = module_file(module + "." + alias.name)
                if found:
                    hit = find_class(found, alias.name, depth + 1)
                    if hit:
                        return hit
                if sub:
                    return None
    return None


def default_of(value):
    if value is None:
        return "<required>"
    if isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", None)) == "field":
        for kw in value.keywords:
            if kw.arg == "default":
                return literal(kw.value)
            if kw.arg == "default_factory":
                return "<computed>"
        return "<required>"
    return literal(value)


def literal(node):
    try:
        return ast.literal_eval(node)
    except Exception:
        return "<computed>"


def is_dataclass(cls):
    for d in cls.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if getattr(target, "id", getattr(target, "attr", None)) == "dataclass":
            return True
    return False


def fields_of(path, cls, out, depth=0):
    for base in cls.bases:
        name = getattr(base, "id", None)
        hit = find_class(path, name) if name else None
        if hit and depth < 10:
            fields_of(hit[0], hit[1], out, depth + 1)
    if not is_dataclass(cls):
        return
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if "ClassVar" in ast.unparse(node.annotation):
                continue
            out[node.target.id] = default_of(node.value)


def main():
    fields = {}
    for dotted in sys.argv[2].split(","):
        module, _, name = dotted.rpartition(".")
        path, cls = find_class(module_file(module), name)
        own = {}
        fields_of(path, cls, own)
        for k, v in own.items():
            fields.setdefault(k, v)
    result = {}
    for recipe in sys.argv[3:]:
        with open(recipe, encoding="utf-8") as f:
            values = yaml.safe_load(f) or {}
        result[recipe] = {**fields, **json.loads(json.dumps(values, default=str))}
    print(json.dumps(result))


main()
