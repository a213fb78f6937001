"""Checkpoint records in `<log_path>/checkpoints.jsonl`: saving them and finding the last resumable one."""

import json
import logging
from pathlib import Path
from typing import Any, Dict, List, Literal, Optional

from tinker_cookbook import demo_service

CHECKPOINTS_BASE_NAME = "checkpoints.jsonl"
_KNOWN_KEYS = ("name", "batch", "epoch", "final", "state_path", "sampler_path")

logger = logging.getLogger(__name__)


class CheckpointRecord:
    """One line of checkpoints.jsonl: the known keys, plus any other loop-state keys kept in `extra`."""

    def __init__(self, name: str, batch: Optional[int] = None, epoch: Optional[int] = None,
                 final: Optional[bool] = None, state_path: Optional[str] = None,
                 sampler_path: Optional[str] = None, extra: Optional[Dict[str, Any]] = None):
        self.name = name
        self.batch = batch
        self.epoch = epoch
        self.final = final
        self.state_path = state_path
        self.sampler_path = sampler_path
        self.extra = {k: v for k, v in (extra or {}).items() if k not in _KNOWN_KEYS}

    def to_dict(self) -> Dict[str, Any]:
        """Known keys in the real order, None ones left out, then the extra keys."""
        d: Dict[str, Any] = {"name": self.name}
        for key in _KNOWN_KEYS[1:]:
            value = getattr(self, key)
            if value is not None:
                d[key] = value
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "CheckpointRecord":
        return cls(
            name=d["name"], batch=d.get("batch"), epoch=d.get("epoch"), final=d.get("final"),
            state_path=d.get("state_path"), sampler_path=d.get("sampler_path"),
            extra={k: v for k, v in d.items() if k not in _KNOWN_KEYS},
        )

    def has(self, key: str) -> bool:
        if key in _KNOWN_KEYS:
            return getattr(self, key) is not None
        return key in self.extra

    def __repr__(self) -> str:
        return f"CheckpointRecord({self.to_dict()!r})"


def load_checkpoints_file(log_dir: str) -> List[CheckpointRecord]:
    path = Path(log_dir) / CHECKPOINTS_BASE_NAME
    if not path.exists():
        logger.info(f"No checkpoints found at {path}")
        return []
    records = []
    with open(path) as f:
        for line in f:
            if line.strip():
                records.append(CheckpointRecord.from_dict(json.loads(line)))
    return records


def get_last_checkpoint(log_dir: str, required_key: str = "state_path") -> Optional[CheckpointRecord]:
    """The last record that has `required_key` (a resumable one by default), else None."""
    with_key = [c for c in load_checkpoints_file(log_dir) if c.has(required_key)]
    if not with_key:
        logger.info(f"No checkpoints found with key {required_key} in {log_dir}")
        return None
    logger.info(f"Found {len(with_key)} valid checkpoints with key '{required_key}' in {log_dir}")
    logger.info(f"Using last checkpoint: {with_key[-1]}")
    return with_key[-1]


def save_checkpoint(
    training_client: "demo_service.TrainingClient",
    name: str,
    log_path: str,
    loop_state: Dict[str, Any],
    kind: Literal["state", "sampler", "both"] = "state",
) -> Dict[str, str]:
    """Save weights (state = weights + optimizer, sampler = weights) and append their record."""
    paths: Dict[str, str] = {}
    if kind in ("state", "both"):
        paths["state_path"] = training_client.save_state(name)
    if kind in ("sampler", "both"):
        paths["sampler_path"] = training_client.save_weights_for_sampler(name)
    logger.info(f"Saved checkpoints: {paths}")
    record = CheckpointRecord.from_dict({"name": name, **loop_state, **paths})
    with open(Path(log_path) / CHECKPOINTS_BASE_NAME, "a") as f:
        f.write(json.dumps(record.to_dict()) + "\n")
    return paths
