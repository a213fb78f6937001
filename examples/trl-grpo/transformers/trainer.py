"""The Trainer loop of transformers, reduced to what a GRPO run on the toy policy needs: steps, logs, checkpoints, resume.

Shaped like the real one: `train(resume_from_checkpoint=True)` takes the last `checkpoint-N` in output_dir (a
ValueError naming the folder when there is none), a path takes that checkpoint (a ValueError when it holds no
checkpoint); the loop logs every `logging_steps` (and step 1 with `logging_first_step`) into `state.log_history` and
on stdout, saves `checkpoint-N/` every `save_steps` and after the last step (save_strategy "steps"), each with
`trainer_state.json` written as TrainerState.save_to_json writes it (sorted keys, indent 2). A resumed run starts
after the checkpoint's global_step with its log_history, so each step is logged once. The real Trainer has no SIGTERM
handler: a stopped run loses the steps since its last checkpoint, and so does this one.
Miniature-only: the weights and optimizer state are one `toy_state.json` in each checkpoint, where the real one
writes model.safetensors, optimizer.pt, scheduler.pt and rng_state.pth.
"""

import dataclasses
import json
import logging
import math
import os
import shutil
import sys
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Union

from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR, get_last_checkpoint
from transformers.training_args import TrainingArguments

logger = logging.getLogger("transformers.trainer")
TRAINER_STATE_NAME = "trainer_state.json"
TOY_STATE_NAME = "toy_state.json"


@dataclass
class TrainerState:
    epoch: Optional[float] = None
    global_step: int = 0
    max_steps: int = 0
    logging_steps: int = 500
    eval_steps: int = 500
    save_steps: int = 500
    train_batch_size: Optional[int] = None
    num_train_epochs: int = 0
    num_input_tokens_seen: int = 0
    total_flos: float = 0
    log_history: List[Dict[str, float]] = None  # type: ignore[assignment]
    best_metric: Optional[float] = None
    best_global_step: Optional[int] = None
    best_model_checkpoint: Optional[str] = None
    is_local_process_zero: bool = True
    is_world_process_zero: bool = True
    is_hyper_param_search: bool = False
    trial_name: Optional[str] = None
    trial_params: Optional[Dict[str, Union[str, float, int, bool]]] = None
    stateful_callbacks: Optional[Dict[str, Any]] = None

    def __post_init__(self) -> None:
        if self.log_history is None:
            self.log_history = []
        if self.stateful_callbacks is None:
            self.stateful_callbacks = {}

    def save_to_json(self, json_path: str) -> None:
        json_string = json.dumps(dataclasses.asdict(self), indent=2, sort_keys=True) + "\n"
        with open(json_path, "w", encoding="utf-8") as f:
            f.write(json_string)

    @classmethod
    def load_from_json(cls, json_path: str) -> "TrainerState":
        with open(json_path, encoding="utf-8") as f:
            return cls(**json.loads(f.read()))


def _interval(value: float, max_steps: int) -> int:
    """logging_steps / save_steps: below 1 a ratio of the run's steps, as the real Trainer reads them."""
    return math.ceil(max_steps * value) if 0 < value < 1 else int(value)


class Trainer:
    """Subclasses implement `training_step(step) -> (loss, grad_norm)` and may extend `log`."""

    def __init__(self, args: TrainingArguments, train_dataset: Optional[List[Dict[str, Any]]] = None) -> None:
        self.args = args
        self.train_dataset = train_dataset or []
        self.state = TrainerState()

    # Hooks for the subclass.
    def steps_per_epoch(self) -> int:
        return max(len(self.train_dataset) // max(self.args.per_device_train_batch_size, 1), 1)

    def training_step(self, step: int) -> Dict[str, float]:
        raise NotImplementedError

    def model_state(self) -> Dict[str, Any]:
        raise NotImplementedError

    def load_model_state(self, data: Dict[str, Any]) -> None:
        raise NotImplementedError

    def _get_learning_rate(self) -> float:
        """The linear schedule's rate after the scheduler stepped (what the real Trainer logs)."""
        if self.args.lr_scheduler_type == "constant":
            return self.args.learning_rate
        remaining = max(self.state.max_steps - self.state.global_step, 0)
        return self.args.learning_rate * remaining / max(self.state.max_steps, 1)

    def log(self, logs: Dict[str, float], start_time: Optional[float] = None) -> None:
        if self.state.epoch is not None:
            logs["epoch"] = self.state.epoch
        output = {**logs, **{"step": self.state.global_step}}
        self.state.log_history.append(output)
        # ProgressCallback.on_log: the dict on stdout, without total_flos.
        shown = {k: v for k, v in logs.items() if k != "total_flos"}
        print(shown, flush=True)

    def _resolve_checkpoint(self, resume_from_checkpoint: Union[str, bool, None]) -> Optional[str]:
        if isinstance(resume_from_checkpoint, bool) and resume_from_checkpoint:
            found = get_last_checkpoint(self.args.output_dir) if os.path.isdir(self.args.output_dir) else None
            if found is None:
                raise ValueError(f"No valid checkpoint found in output directory ({self.args.output_dir})")
            return found
        if resume_from_checkpoint is False:
            return None
        if resume_from_checkpoint is not None and not os.path.isfile(
            os.path.join(resume_from_checkpoint, TOY_STATE_NAME)
        ):
            raise ValueError(f"Can't find a valid checkpoint at {resume_from_checkpoint}")
        return resume_from_checkpoint

    def _save_checkpoint(self) -> None:
        folder = os.path.join(self.args.output_dir, f"{PREFIX_CHECKPOINT_DIR}-{self.state.global_step}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, TOY_STATE_NAME), "w", encoding="utf-8") as f:
            json.dump(self.model_state(), f)
        self.state.stateful_callbacks = {
            "TrainerControl": {
                "args": {
                    "should_epoch_stop": False,
                    "should_evaluate": False,
                    "should_log": False,
                    "should_save": True,
                    "should_training_stop": self.state.global_step >= self.state.max_steps,
                },
                "attributes": {},
            }
        }
        self.state.save_to_json(os.path.join(folder, TRAINER_STATE_NAME))
        self._rotate_checkpoints()

    def _rotate_checkpoints(self) -> None:
        limit = self.args.save_total_limit
        if limit is None or limit <= 0:
            return
        prefix = f"{PREFIX_CHECKPOINT_DIR}-"
        found = sorted(
            (int(name[len(prefix):]), name)
            for name in os.listdir(self.args.output_dir)
            if name.startswith(prefix) and name[len(prefix):].isdigit()
        )
        for _, name in found[: max(len(found) - limit, 0)]:
            logger.info(f"Deleting older checkpoint [{name}] due to args.save_total_limit")
            shutil.rmtree(os.path.join(self.args.output_dir, name), ignore_errors=True)

    def train(self, resume_from_checkpoint: Union[str, bool, None] = None) -> Dict[str, float]:
        args = self.args
        checkpoint = self._resolve_checkpoint(resume_from_checkpoint)
        per_epoch = self.steps_per_epoch()
        max_steps = args.max_steps if args.max_steps > 0 else math.ceil(args.num_train_epochs * per_epoch)
        self.state = TrainerState(
            max_steps=max_steps,
            logging_steps=_interval(args.logging_steps, max_steps),
            save_steps=_interval(args.save_steps, max_steps),
            train_batch_size=args.per_device_train_batch_size,
            num_train_epochs=math.ceil(max_steps / per_epoch),
        )
        if checkpoint is not None:
            self.state = TrainerState.load_from_json(os.path.join(checkpoint, TRAINER_STATE_NAME))
            self.state.max_steps = max_steps
            with open(os.path.join(checkpoint, TOY_STATE_NAME), encoding="utf-8") as f:
                self.load_model_state(json.load(f))
        logger.info("***** Running training *****")
        logger.info(f"  Num examples = {len(self.train_dataset):,}")
        logger.info(f"  Total optimization steps = {max_steps:,}")
        if checkpoint is not None:
            logger.info("  Continuing training from checkpoint, will skip to saved global_step")
            logger.info(f"  Continuing training from global step {self.state.global_step}")
        start = time.time()
        first_step = self.state.global_step + 1
        losses: List[float] = []
        window: List[Dict[str, float]] = []
        total_loss = 0.0
        for step in range(first_step, max_steps + 1):
            result = self.training_step(step)
            window.append(result)
            losses.append(result["loss"])
            total_loss += result["loss"]
            self.state.global_step = step
            self.state.epoch = step / per_epoch
            should_log = (step == 1 and args.logging_first_step) or (
                self.state.logging_steps > 0 and step % self.state.logging_steps == 0
            )
            should_save = args.save_strategy == "steps" and (
                (self.state.save_steps > 0 and step % self.state.save_steps == 0) or step >= max_steps
            )
            if should_log:
                logs = {
                    "loss": round(sum(r["loss"] for r in window) / len(window), 4),
                    "grad_norm": sum(r["grad_norm"] for r in window) / len(window),
                    "learning_rate": self._get_learning_rate(),
                }
                self.log(logs, start)
                window = []
            if should_save:
                self._save_checkpoint()
        runtime = time.time() - start
        done = max(max_steps - first_step + 1, 0)
        metrics = {
            "train_runtime": round(runtime, 4),
            "train_samples_per_second": round(done * args.per_device_train_batch_size / max(runtime, 1e-9), 3),
            "train_steps_per_second": round(done / max(runtime, 1e-9), 3),
            "total_flos": 0.0,
            "train_loss": total_loss / max(done, 1),
        }
        self.log(dict(metrics))
        return metrics

    def save_model(self, output_dir: Optional[str] = None) -> None:
        folder = output_dir or self.args.output_dir
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, TOY_STATE_NAME), "w", encoding="utf-8") as f:
            json.dump(self.model_state(), f)


def setup_logging() -> None:
    logging.basicConfig(
        format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
        level=logging.INFO,
        stream=sys.stderr,
    )
