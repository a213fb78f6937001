"""The leaves of a YAML config as OmegaConf loads it (unresolved), flattened to dotted names with their Python type:
the independent reader of verl's configs (Debian's python3-omegaconf). Usage: python3 omegaconf-flat.py FILE"""
import json
import math
import sys

from omegaconf import OmegaConf

TYPES = {bool: "bool", int: "int", float: "float", str: "str", type(None): "null", list: "list", dict: "dict"}


def flat(node, prefix, out):
    for key, value in node.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and value:
            flat(value, name, out)
        else:
            kind = "required" if value == "???" else TYPES[type(value)]
            # JSON has no inf or nan; JavaScript's JSON.stringify writes them as null too.
            if isinstance(value, float) and not math.isfinite(value):
                value = None
            out[name] = [kind, value]
    return out


print(json.dumps(flat(OmegaConf.to_container(OmegaConf.load(sys.argv[1]), resolve=False), "", {})))
