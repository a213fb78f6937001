"""Shared-field propagation for RLConfig: plain Python on the raw dict (no pydantic), so the `rl` entry point's own
reader and the pydantic classes run the same rules.

A shared field (max_steps, model.name, ckpt, monitors.file, monitors.wandb) fills the trainer's and orchestrator's
matching field when that sub-config section exists and does not set it; set at both levels with different values it
is an error. As in prime-rl, nothing is propagated into a section the config lacks.
"""

from typing import Any

SHARED = {
    "max_steps": ("trainer.max_steps", "orchestrator.max_steps"),
    "model.name": ("trainer.model.name", "orchestrator.model.name"),
    "ckpt": ("trainer.ckpt", "orchestrator.ckpt"),
    "monitors.file": ("trainer.monitors.file", "orchestrator.monitors.file"),
    "monitors.wandb": ("trainer.monitors.wandb", "orchestrator.monitors.wandb"),
}


def _get(data: dict, path: str) -> Any:
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def propagate_shared_fields(data: Any) -> Any:
    if not isinstance(data, dict):
        return data
    conflicts = []
    for shared, targets in SHARED.items():
        value = _get(data, shared)
        if value is None:
            continue
        for target in targets:
            parts = target.split(".")
            if not isinstance(data.get(parts[0]), dict):
                continue
            existing = _get(data, target)
            if existing is not None and existing != value:
                conflicts.append((shared, target))
                continue
            node = data
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            if isinstance(node, dict) and parts[-1] not in node:
                node[parts[-1]] = value
    if conflicts:
        pairs = ", ".join(f"{s} and {t}" for s, t in conflicts)
        raise ValueError(f"Conflicting values set at the shared and sub-config level: {pairs}")
    return data
