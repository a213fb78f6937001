"""hydra stand-in: `@hydra.main(config_path, config_name, version_base)` composing a config from its defaults list and
applying command-line overrides, as Hydra 1.3 does for the features verl's configs use.

Defaults list entries: `group: option`, `group@package: option` (package relative to the including config's),
`../group@package: option` (group relative to the including config's group), `name` (a config in the same group),
`_self_` (where the config's own keys merge; at the end when absent), `${group}` in an option (that group's choice),
and a `# @package _global_` header. Overrides: `key=value` (the key must exist), `+key=value` (it must not),
`++key=value`, `~key`, `group=option`, `hydra.run.dir=...`, `hydra.output_subdir=null`; values typed by Hydra's
grammar (null, true/false, ints, floats, quoted strings, [lists], {dicts}, interpolations kept). `--config-path` /
`--config-name` choose another primary config. Every run writes `<hydra.run.dir>/.hydra/{config,overrides}.yaml`
(default run dir `outputs/<date>/<time>` under the working directory), as Hydra does. A composition error prints
Hydra's message and exits 1; an exception in the task prints Hydra's "Error executing job" and the traceback, exit 1.
"""

import functools
import os
import re
import sys
import time
import traceback
from typing import Any, Callable, Dict, List, Optional, Tuple

from omegaconf import DictConfig, OmegaConf
from omegaconf._yaml import loads as yaml_loads

_HINT = "\n\nSet the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."
_OVERRIDE_RE = re.compile(r"^(?P<prefix>~|\+\+|\+)?(?P<key>[A-Za-z_][\w.@/\-]*)(?:=(?P<value>.*))?$", re.S)


class ConfigCompositionException(Exception):
    pass


class OverrideParseException(Exception):
    pass


# ----- override values (Hydra's grammar, the primitives and containers) -----

def _split_top(text: str, sep: str = ",") -> List[str]:
    parts, depth, quote, current = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += ch
    if current.strip() or parts:
        parts.append(current)
    return parts


def parse_value(text: str) -> Any:
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    if t.startswith("[") and t.endswith("]"):
        return [parse_value(p) for p in _split_top(t[1:-1])]
    if t.startswith("{") and t.endswith("}") and not t.startswith("${"):
        out = {}
        for item in _split_top(t[1:-1]):
            k, _, v = item.partition(":")
            out[k.strip()] = parse_value(v)
        return out
    if t.lower() == "null":
        return None
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    if re.fullmatch(r"[-+]?(0|[1-9][0-9_]*)", t):
        return int(t.replace("_", ""))
    if re.fullmatch(r"[-+]?(\d[\d_]*\.\d*|\.\d+|\d[\d_]*)([eE][-+]?\d+)?|[-+]?(inf|nan)", t, re.I):
        return float(t.replace("_", ""))
    return t


def parse_override(line: str) -> Tuple[str, str, Any]:
    m = _OVERRIDE_RE.match(line)
    if m is None or (m.group("value") is None and m.group("prefix") != "~"):
        missing = "missing EQUAL at '<EOF>'" if m is not None else f"token recognition error at: '{line}'"
        raise OverrideParseException(
            f"Error parsing override '{line}'\n{missing}\n"
            "See https://hydra.cc/docs/1.2/advanced/override_grammar/basic for details"
        )
    value = m.group("value")
    return m.group("prefix") or "", m.group("key"), parse_value(value) if value is not None else None


# ----- composition -----

def _merge(base: Dict[str, Any], over: Dict[str, Any]) -> None:
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(base.get(k), dict):
            _merge(base[k], v)
        else:
            base[k] = _copy(v)


def _copy(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


def _merge_at(result: Dict[str, Any], package: str, content: Dict[str, Any]) -> None:
    node = result
    for part in [p for p in package.split(".") if p]:
        node = node.setdefault(part, {})
    _merge(node, content)


def _join(*parts: str) -> str:
    return ".".join(p for p in parts if p)


class _Composer:
    def __init__(self, search_dir: str, group_overrides: Dict[str, str]) -> None:
        self.search_dir = search_dir
        self.group_overrides = group_overrides
        self.choices: Dict[str, str] = {}
        self.result: Dict[str, Any] = {}

    def load(self, rel: str) -> Tuple[Dict[str, Any], Optional[str]]:
        path = os.path.join(self.search_dir, rel + ".yaml")
        if not os.path.isfile(path):
            group, _, option = rel.rpartition("/")
            folder = os.path.join(self.search_dir, group)
            options = sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".yaml")) if os.path.isdir(folder) else []
            listing = "".join(f"\n\t{o}" for o in options)
            raise ConfigCompositionException(
                f"Could not find '{rel}'" + (f"\nAvailable options in '{group}':{listing}" if group else "")
            )
        with open(path, encoding="utf-8") as f:
            text = f.read()
        header = None
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            m = re.match(r"#\s*@package\s+(\S+)", line)
            if m:
                header = m.group(1)
        return yaml_loads(text) or {}, header

    def process(self, rel: str, package: str, group: str) -> None:
        raw, header = self.load(rel)
        if header == "_global_":
            package = ""
        elif header is not None:
            package = header
        defaults = raw.pop("defaults", []) or []
        names = [d for d in defaults if isinstance(d, str)]
        if "_self_" not in names:
            defaults = list(defaults) + ["_self_"]
        for entry in defaults:
            if entry == "_self_":
                _merge_at(self.result, package, raw)
            elif isinstance(entry, str):
                self.process(os.path.normpath(os.path.join(group, entry)), package, group)
            else:
                (key, option), = entry.items()
                group_part, _, pkg = key.partition("@")
                group_path = os.path.normpath(os.path.join(group, group_part))
                option = self.group_overrides.get(key, self.group_overrides.get(group_path, option))
                option = re.sub(r"\$\{([^}]+)\}", lambda m: self.choices.get(m.group(1), m.group(0)), str(option))
                self.choices[group_path] = option
                target = _join(package, pkg if pkg else group_path.replace("/", "."))
                self.process(f"{group_path}/{option}", target, group_path)


def _lookup_parent(cfg: Dict[str, Any], key: str) -> Tuple[Optional[Dict[str, Any]], str, str]:
    """(the dict that holds key's last part or None, that part, the first missing part)."""
    parts = key.split(".")
    node: Any = cfg
    for part in parts[:-1]:
        if not isinstance(node, dict) or part not in node:
            return None, parts[-1], part
        node = node[part]
    return (node if isinstance(node, dict) else None), parts[-1], parts[-1]


def _override_error(key: str, line: str, missing: str, full: str) -> ConfigCompositionException:
    return ConfigCompositionException(
        f"Could not override '{key}'.\nTo append to your config use +{line}\n"
        f"Key '{missing}' is not in struct\n    full_key: {full}\n    object_type=dict"
    )


def apply_overrides(cfg: Dict[str, Any], overrides: List[Tuple[str, str, Any, str]]) -> None:
    for prefix, key, value, line in overrides:
        parent, last, missing = _lookup_parent(cfg, key)
        exists = parent is not None and last in parent
        full = key[: key.index(missing) + len(missing)] if missing != last else key
        if prefix == "~":
            if not exists:
                raise ConfigCompositionException(f"Could not delete from config. '{key}' does not exist.")
            del parent[last]  # type: ignore[union-attr]
        elif prefix == "+" and exists:
            raise ConfigCompositionException(
                f"Could not append to config. An item is already at '{key}'.\n"
                f"Either remove + prefix: '{line[1:]}'\nOr add a second + to add or override '{key}': '+{line}'"
            )
        elif prefix in ("+", "++"):
            node = cfg
            for part in key.split(".")[:-1]:
                node = node.setdefault(part, {})
            node[last] = value
        elif not exists:
            raise _override_error(key, line, missing, full)
        elif isinstance(value, dict) and isinstance(parent[last], dict):  # type: ignore[index]
            _merge(parent[last], value)  # type: ignore[index]
        else:
            parent[last] = value  # type: ignore[index]


# ----- the run folder Hydra writes -----

def _yaml_scalar(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    text = str(v)
    plain_ok = text and not re.search(r"^[\s\-?:,\[\]{}#&*!|>'\"%@`]|: | #|\s$", text)
    if plain_ok and yaml_loads(f"k: {text}") == {"k": text}:
        return text
    return "'" + text.replace("'", "''") + "'"


def to_yaml(obj: Any, indent: int = 0) -> str:
    pad = " " * indent
    if isinstance(obj, dict):
        if not obj:
            return pad + "{}\n"
        out = ""
        for k, v in obj.items():
            if isinstance(v, (dict, list)) and v:
                out += f"{pad}{k}:\n" + to_yaml(v, indent + 2)
            else:
                out += f"{pad}{k}: " + (("{}" if isinstance(v, dict) else "[]") if isinstance(v, (dict, list)) else _yaml_scalar(v)) + "\n"
        return out
    if isinstance(obj, list):
        out = ""
        for v in obj:
            if isinstance(v, (dict, list)) and v:
                out += f"{pad}-\n" + to_yaml(v, indent + 2)
            else:
                out += f"{pad}- " + _yaml_scalar(v) + "\n"
        return out
    return pad + _yaml_scalar(obj) + "\n"


def _run_dir(hydra_overrides: Dict[str, Any]) -> Tuple[str, Optional[str]]:
    now = time.localtime()
    run_dir = hydra_overrides.get("hydra.run.dir") or os.path.join(
        "outputs", time.strftime("%Y-%m-%d", now), time.strftime("%H-%M-%S", now)
    )
    subdir = hydra_overrides.get("hydra.output_subdir", ".hydra")
    return str(run_dir), (None if subdir is None else str(subdir))


def compose(config_dir: str, config_name: str, args: List[str]) -> Tuple[Dict[str, Any], Dict[str, Any], List[str]]:
    """(the composed config, the hydra.* overrides, the task overrides as given) from the command-line overrides."""
    parsed = [(*parse_override(a), a) for a in args]
    hydra_overrides = {k: v for _, k, v, _ in parsed if k.startswith("hydra.")}
    task = [p for p in parsed if not p[1].startswith("hydra.")]
    primary, _ = _Composer(config_dir, {}).load(config_name)
    groups = set()
    for entry in primary.get("defaults", []) or []:
        if isinstance(entry, dict):
            (key, _), = entry.items()
            groups.update({key, key.partition("@")[0]})
    group_overrides = {k: str(v) for p, k, v, _ in task if not p and k in groups}
    composer = _Composer(config_dir, group_overrides)
    composer.process(config_name, "", "")
    apply_overrides(composer.result, [p for p in task if p[0] or p[1] not in groups])
    return composer.result, hydra_overrides, [line for *_, line in task]


def main(config_path: Optional[str] = None, config_name: Optional[str] = None, version_base: Any = None) -> Callable:
    def decorator(task: Callable[[DictConfig], Any]) -> Callable[[], Any]:
        @functools.wraps(task)
        def wrapper() -> Any:
            module_dir = os.path.dirname(os.path.abspath(sys.modules[task.__module__].__file__ or ""))
            config_dir = os.path.join(module_dir, config_path or "")
            name = config_name or ""
            args: List[str] = []
            argv = sys.argv[1:]
            i = 0
            while i < len(argv):
                arg = argv[i]
                for flag, short in (("--config-path", "-cp"), ("--config-name", "-cn")):
                    if arg in (flag, short) and i + 1 < len(argv):
                        value, i = argv[i + 1], i + 1
                    elif arg.startswith(flag + "="):
                        value = arg.split("=", 1)[1]
                    else:
                        continue
                    if flag == "--config-path":
                        config_dir = os.path.abspath(value)
                    else:
                        name = value[:-5] if value.endswith(".yaml") else value
                    break
                else:
                    args.append(arg)
                i += 1
            try:
                cfg, hydra_overrides, task_overrides = compose(config_dir, name, args)
            except (ConfigCompositionException, OverrideParseException) as e:
                sys.stderr.write(f"{e}{_HINT}\n")
                sys.exit(1)
            run_dir, subdir = _run_dir(hydra_overrides)
            if subdir is not None:
                os.makedirs(os.path.join(run_dir, subdir), exist_ok=True)
                with open(os.path.join(run_dir, subdir, "config.yaml"), "w", encoding="utf-8") as f:
                    f.write(to_yaml(cfg))
                with open(os.path.join(run_dir, subdir, "overrides.yaml"), "w", encoding="utf-8") as f:
                    f.write(to_yaml(task_overrides) if task_overrides else "[]\n")
            try:
                return task(OmegaConf.create(cfg))
            except Exception:
                sys.stderr.write(f"Error executing job with overrides: {task_overrides!r}\n")
                sys.stderr.write(traceback.format_exc())
                sys.stderr.write(_HINT.lstrip("\n") + "\n")
                sys.exit(1)

        return wrapper

    return decorator
