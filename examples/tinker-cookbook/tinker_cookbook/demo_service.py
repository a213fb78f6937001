"""Stand-in for the Tinker service: training clients whose weights are saved under tinker:// paths.

A path looks like the real ones: tinker://<run-id>:train:0/weights/<name> (training state:
weights + Adam state, for resuming or forking) and tinker://<run-id>:train:0/sampler_weights/<name>
(weights only). The miniature maps them to JSON files in a local store folder:
    $TINKER_DEMO_STORE if set, else <folder holding log_path>/.tinker-store
    <store>/<run-id>/weights/<name>.json, <store>/<run-id>/sampler_weights/<name>.json
"""

import json
import os
import re
import uuid
from pathlib import Path
from typing import Any, Dict, Optional

from tinker_cookbook.demo_model import Policy
from tinker_cookbook.exceptions import CheckpointError

_PATH_RE = re.compile(r"^tinker://([A-Za-z0-9-]+):train:0/(weights|sampler_weights)/([A-Za-z0-9_.-]+)$")


def store_dir(log_path: str) -> Path:
    """Where tinker:// paths live on this machine (see the module doc)."""
    env = os.environ.get("TINKER_DEMO_STORE")
    if env:
        return Path(env).expanduser()
    return Path(log_path).expanduser().resolve().parent / ".tinker-store"


def _file_for(store: Path, tinker_path: str) -> Path:
    match = _PATH_RE.match(tinker_path)
    if not match:
        raise CheckpointError(
            f"Invalid tinker path {tinker_path!r}: expected tinker://<run-id>:train:0/weights/<name>"
        )
    run_id, kind, name = match.groups()
    return store / run_id / kind / f"{name}.json"


def _write_atomically(path: Path, data: Dict[str, Any]) -> None:
    # A run killed mid-save must never leave a half-written checkpoint behind.
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as f:
        json.dump(data, f, sort_keys=True)
    os.replace(tmp, path)


class TrainingClient:
    """A LoRA training run on the toy model: its policy, and saving it under tinker:// paths."""

    def __init__(self, store: Path, model_name: str, lora_rank: int, policy: Policy):
        self.store = store
        self.model_name = model_name
        self.lora_rank = lora_rank
        self.policy = policy
        self.run_id = str(uuid.uuid4())

    def _save(self, kind: str, name: str, with_optimizer: bool) -> str:
        path = f"tinker://{self.run_id}:train:0/{kind}/{name}"
        data: Dict[str, Any] = {
            "model_name": self.model_name, "lora_rank": self.lora_rank, "weights": self.policy.weights,
        }
        if with_optimizer:
            data["optimizer"] = {"t": self.policy.adam_t, "m": self.policy.adam_m, "v": self.policy.adam_v}
        _write_atomically(_file_for(self.store, path), data)
        return path

    def save_state(self, name: str) -> str:
        return self._save("weights", name, with_optimizer=True)

    def save_weights_for_sampler(self, name: str) -> str:
        return self._save("sampler_weights", name, with_optimizer=False)


class ServiceClient:
    """Creates training clients: fresh, from a state's weights (a fork), or from a state with its optimizer (resume)."""

    def __init__(self, store: Path):
        self.store = store

    def create_lora_training_client(self, model_name: str, rank: int) -> TrainingClient:
        return TrainingClient(self.store, model_name, rank, Policy())

    def _load(self, tinker_path: str) -> Dict[str, Any]:
        file = _file_for(self.store, tinker_path)
        if "/weights/" not in tinker_path:
            raise CheckpointError(f"{tinker_path} holds sampler weights only; load a training state (…/weights/<name>)")
        if not file.exists():
            raise CheckpointError(f"Checkpoint {tinker_path} not found (looked for {file})")
        with open(file) as f:
            return json.load(f)

    def create_training_client_from_state(self, tinker_path: str, with_optimizer: bool = False,
                                          model_name: Optional[str] = None, rank: Optional[int] = None) -> TrainingClient:
        data = self._load(tinker_path)
        policy = Policy()
        policy.weights = {k: float(v) for k, v in data["weights"].items()}
        if with_optimizer:
            opt = data.get("optimizer") or {}
            policy.adam_t = int(opt.get("t", 0))
            policy.adam_m = {k: float(v) for k, v in (opt.get("m") or {}).items()}
            policy.adam_v = {k: float(v) for k, v in (opt.get("v") or {}).items()}
        return TrainingClient(self.store, model_name or data.get("model_name", ""), rank or int(data.get("lora_rank", 32)), policy)

    def create_training_client_from_state_with_optimizer(self, tinker_path: str) -> TrainingClient:
        return self.create_training_client_from_state(tinker_path, with_optimizer=True)
