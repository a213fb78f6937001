"""Independent oracle for cookbook recipe discovery, standard library only (ast): prints JSON.

Usage: python3 chz_fields_oracle.py RECIPES_DIR

For each module under RECIPES_DIR whose `if __name__ == "__main__":` block calls chz.entrypoint(Cls)
or chz.nested_entrypoint(fn), lists the config class's fields as chz's argv names them (nested chz
classes flattened to `parent.child`), each with its annotation text and its default: the literal
value (ast.literal_eval), "computed" when only running code knows it, or "required".
"""

import ast
import json
import os
import sys

HOPS = 16


class Module:
    def __init__(self, path, tree, source):
        self.path = path
        self.tree = tree
        self.source = source


cache = {}


def load(path):
    if path not in cache:
        try:
            with open(path, encoding="utf-8") as handle:
                source = handle.read()
            cache[path] = Module(path, ast.parse(source), source)
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            cache[path] = None
    return cache[path]


def module_at(base):
    """('file', Module, package_dir or None) for base.py or the package base/."""
    if os.path.isfile(base + ".py"):
        return (load(base + ".py"), None)
    if os.path.isdir(base):
        init = os.path.join(base, "__init__.py")
        return (load(init) if os.path.isfile(init) else None, base)
    return None


def find_module(root, from_path, name, level):
    if level > 0:
        base = os.path.dirname(from_path)
        for _ in range(level - 1):
            base = os.path.dirname(base)
    else:
        if root is None:
            return None
        base = root
    found = module_at(base) if not name else None
    for part in (name or "").split("."):
        if not part:
            continue
        base = os.path.join(base, part)
        found = module_at(base)
        if found is None:
            return None
    return found


def statements(body):
    """Module-level statements, looking through if/try/with blocks."""
    for node in body:
        if isinstance(node, (ast.If, ast.With)):
            yield from statements(node.body)
            yield from statements(getattr(node, "orelse", []))
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from statements(block)
            for handler in node.handlers:
                yield from statements(handler.body)
        else:
            yield node


def dotted(node):
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return head + [node.attr] if head else None
    return None


def lookup(root, module, name, hops):
    """What `name` means at module level in `module`: ('class', Module, ClassDef), ('module', ...), ..."""
    if hops > HOPS or module is None:
        return None
    found = None
    for node in statements(module.tree.body):
        if isinstance(node, ast.ClassDef) and node.name == name:
            found = ("class", module, node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            found = ("function", module, node)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    target = find_module(root, module.path, node.module, node.level)
                    found = member(root, target, alias.name, hops + 1) if target else ("external",)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                if local == name:
                    modname = alias.name if alias.asname else alias.name.split(".")[0]
                    target = find_module(root, module.path, modname, 0)
                    found = ("module", target) if target else ("external",)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id == name:
                found = ("value", module, node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.target.id == name and node.value is not None:
                found = ("value", module, node.value)
    return found


def member(root, target, name, hops):
    file, package_dir = target
    found = lookup(root, file, name, hops) if file else None
    if found is None and package_dir:
        sub = module_at(os.path.join(package_dir, name))
        if sub:
            return ("module", sub)
    return found


def resolve(root, module, path, hops=0):
    found = lookup(root, module, path[0], hops)
    for part in path[1:]:
        if found and found[0] == "module":
            found = member(root, found[1], part, hops + 1)
        elif found and found[0] == "class":
            cls = found[2]
            value = None
            for stmt in cls.body:
                if isinstance(stmt, ast.Assign) and [dotted(t) for t in stmt.targets] == [[part]]:
                    value = stmt.value
            return ("member", found[1], value) if value is not None else None
        else:
            return None
    if found and found[0] == "value" and isinstance(found[2], (ast.Name, ast.Attribute)):
        inner = dotted(found[2])
        if inner and hops < HOPS:
            return resolve(root, found[1], inner, hops + 1)
    return found


def is_chz(cls):
    for decorator in cls.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if dotted(target) in (["chz", "chz"], ["chz"]):
            return True
    return False


def text(module, node):
    return " ".join(ast.get_source_segment(module.source, node).split())


OPERATORS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
}


def arithmetic(node):
    """Constant arithmetic on numbers (`128 * 3000`), as Python computes it at import."""
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        left, right = arithmetic(node.left), arithmetic(node.right)
        return OPERATORS[type(node.op)](left, right)
    value = ast.literal_eval(node)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("not a number")
    return value


def literal(module, node):
    try:
        return ("value", ast.literal_eval(node))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    try:
        return ("value", arithmetic(node))
    except (ValueError, SyntaxError, TypeError, ZeroDivisionError, OverflowError, RecursionError):
        pass
    path = dotted(node)
    if path:
        found = resolve(ROOT, module, path)
        if found and found[0] in ("value", "member") and not isinstance(found[2], (ast.Name, ast.Attribute)):
            return literal(found[1], found[2])
    return None


def default_of(module, stmt):
    if stmt.value is None:
        return "required"
    value = stmt.value
    if isinstance(value, ast.Call) and dotted(value.func) in (["chz", "field"], ["field"]):
        result = "required"
        for keyword in value.keywords:
            if keyword.arg == "default":
                known = literal(module, keyword.value)
                result = {"value": known[1]} if known else "computed"
            elif keyword.arg == "default_factory":
                result = "computed"
        return result
    known = literal(module, value)
    return {"value": known[1]} if known else "computed"


def class_fields(module, cls, depth=0):
    fields = {}
    if depth > 6:
        return fields
    for base in reversed(cls.bases):
        path = dotted(base)
        found = resolve(ROOT, module, path) if path else None
        if found and found[0] == "class":
            fields.update(class_fields(found[1], found[2], depth + 1))
    if is_chz(cls):
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                annotation = text(module, stmt.annotation)
                if annotation.startswith(("ClassVar", "typing.ClassVar")):
                    continue
                name = stmt.target.id
                name = name[2:] if name.startswith("X_") else name
                fields[name] = (module, stmt, annotation)
    return fields


def nested_class(module, stmt):
    annotation = stmt.annotation
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = [annotation.left, annotation.right]
        others = [s for s in sides if not (isinstance(s, ast.Constant) and s.value is None)]
        if len(others) != 1:
            return None
        annotation = others[0]
    elif isinstance(annotation, ast.Subscript) and dotted(annotation.value) in (["Optional"], ["typing", "Optional"]):
        annotation = annotation.slice
    path = dotted(annotation)
    found = resolve(ROOT, module, path) if path else None
    if found and found[0] == "class" and is_chz(found[2]):
        return found
    return None


def flatten(module, cls, prefix, seen):
    out = []
    for name, (owner, stmt, annotation) in class_fields(module, cls).items():
        out.append({"name": prefix + name, "type": annotation, "default": default_of(owner, stmt)})
        nested = nested_class(owner, stmt)
        if nested and nested[2] not in seen and len(seen) < 7:
            out.extend(flatten(nested[1], nested[2], prefix + name + ".", seen + [nested[2]]))
    return out


def is_main_test(test):
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    mains = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(mains) == 1


def calls_in(nodes):
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                yield sub


def entry_of(module):
    functions = {
        n.name: n for n in module.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    for node in module.tree.body:
        if not (isinstance(node, ast.If) and is_main_test(node.test)):
            continue
        calls = list(calls_in(node.body))
        for call in list(calls):
            path = dotted(call.func)
            if path and len(path) == 1 and path[0] in functions:
                calls.extend(calls_in(functions[path[0]].body))
        for call in calls:
            path = dotted(call.func)
            if path in (["chz", "entrypoint"], ["entrypoint"]) and call.args:
                return ("entrypoint", dotted(call.args[0]))
            if path in (["chz", "nested_entrypoint"], ["nested_entrypoint"]) and call.args:
                return ("nested", dotted(call.args[0]))
    return None


def config_of(module, entry):
    kind, target = entry
    if not target:
        return None
    found = resolve(ROOT, module, target)
    if kind == "nested":
        if not found or found[0] != "function":
            return None
        args = found[2].args.args
        if not args or args[0].annotation is None:
            return None
        path = dotted(args[0].annotation)
        found = resolve(ROOT, found[1], path) if path else None
    return found if found and found[0] == "class" else None


def find_root(recipes):
    at = os.path.abspath(recipes)
    while True:
        if os.path.basename(at) != "tinker_cookbook" and os.path.isdir(os.path.join(at, "tinker_cookbook")):
            return at
        parent = os.path.dirname(at)
        if parent == at:
            return None
        at = parent


def main(recipes):
    global ROOT
    ROOT = find_root(recipes)
    recipes_out = []
    for folder, dirs, files in os.walk(recipes):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                if b"entrypoint" not in handle.read():
                    continue
            module = load(path)
            entry = entry_of(module) if module else None
            if not entry:
                continue
            rel = os.path.relpath(path, recipes).replace(os.sep, "/")
            found = config_of(module, entry)
            recipes_out.append(
                {
                    "name": rel[: -len(".py")].replace("/", "."),
                    "configClass": found[2].name if found else None,
                    "fields": flatten(found[1], found[2], "", [found[2]]) if found else [],
                }
            )
    recipes_out.sort(key=lambda r: r["name"])
    json.dump(recipes_out, sys.stdout, indent=1)


ROOT = None

if __name__ == "__main__":
    main(sys.argv[1])
