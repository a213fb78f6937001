"""The PPO/GRPO loop on the toy policy, in the order verl's trainer runs it.

Per run: load a checkpoint (trainer.resume_mode), open the trackers (the file logger truncates its file here),
validate first if val_before_train (logged at the resumed step, so a resumed run logs that step's validation
again), then steps global_steps+1 .. total_training_steps: generate rollout.n responses per prompt, reward them,
advantages (algorithm.adv_estimator), one actor update; save `global_step_N/` when save_freq divides N or N is last
(before N's metrics are logged: a run killed between the two resumes after N and never logs N's metrics); dump
`<rollout_data_dir>/<N>.jsonl`; log N's metrics. No SIGTERM handler (verl has none): a stopped run dies by the
signal and loses the steps since its last checkpoint.
Miniature-only: data comes from a toy generator (data.*_files are not read), the actor checkpoint is one
`actor/toy_state.json` (verl writes sharded model/optimizer/extra files and data.pt), RL_DEMO_STEP_SECONDS is a
step's duration (default 1.0 s), RL_DEMO_FAULT=collapse inverts the reward after half the steps.
"""

import hashlib
import json
import math
import os
import random
import time
from pprint import pprint
from typing import Any, Dict, List, Optional

from verl.toy_policy import STRATEGIES, Policy, answer_for, question, reward_for, step_seconds
from verl.utils.checkpoint.checkpoint_manager import find_latest_ckpt_path
from verl.utils.tracking import Tracking

# The toy policy needs far bigger steps than a 1e-6 learning rate: its Adam step is lr times this.
DEMO_LR_SCALE = 1e5
TRAIN_SIZE = 2048
VAL_SIZE = 64
DATA_SOURCE = "toy_arithmetic"


def _stats(prefix: str, xs: List[float]) -> Dict[str, float]:
    return {f"{prefix}/mean": sum(xs) / len(xs), f"{prefix}/max": max(xs), f"{prefix}/min": min(xs)}


class RayPPOTrainer:
    def __init__(self, config: Any) -> None:
        self.config = config
        self.global_steps = 0
        self.policy = Policy()
        seed = config.data.get("seed", None)
        self.seed = 1 if seed is None else seed

    # ----- data -----
    def _problem(self, split: str, index: int):
        rng = random.Random(f"{split}:{index}")
        return rng.randint(0, 99), rng.randint(0, 99)

    def init(self) -> None:
        self.rollout_name = self.config.actor_rollout_ref.rollout.name  # a missing value (???) fails here
        batch = self.config.data.train_batch_size
        self.steps_per_epoch = TRAIN_SIZE // batch
        assert self.steps_per_epoch >= 1, "Train dataloader is empty!"
        total = self.steps_per_epoch * self.config.trainer.total_epochs
        if self.config.trainer.total_training_steps is not None:
            total = self.config.trainer.total_training_steps
        self.total_training_steps = total
        print(f"Total training steps: {self.total_training_steps}", flush=True)
        self._load_checkpoint()

    def _batch(self, step: int) -> List[tuple]:
        batch = self.config.data.train_batch_size
        epoch, index = divmod(step - 1, self.steps_per_epoch)
        order = list(range(TRAIN_SIZE))
        if self.config.data.shuffle:
            random.Random(f"{self.seed}:{epoch}").shuffle(order)
        return [self._problem("train", i) for i in order[index * batch : (index + 1) * batch]]

    # ----- checkpoints -----
    def _load_checkpoint(self) -> None:
        trainer = self.config.trainer
        self.global_steps = 0
        if trainer.resume_mode == "disable":
            return
        if trainer.resume_mode == "auto":
            folder = trainer.default_local_dir
            if not os.path.isabs(folder):
                folder = os.path.join(os.getcwd(), folder)
            global_step_folder = find_latest_ckpt_path(folder)
            if global_step_folder is None:
                print("Training from scratch", flush=True)
                return
        elif trainer.resume_mode == "resume_path":
            assert isinstance(trainer.resume_from_path, str), "resume ckpt must be str type"
            assert "global_step_" in trainer.resume_from_path, "resume ckpt must specify the global_steps"
            global_step_folder = trainer.resume_from_path
            if not os.path.isabs(global_step_folder):
                global_step_folder = os.path.join(os.getcwd(), global_step_folder)
        else:
            raise ValueError(f"Unknown resume mode {trainer.resume_mode}")
        self.global_steps = int(global_step_folder.split("global_step_")[-1])
        print(f"Resuming from {global_step_folder}, setting global step to {self.global_steps}", flush=True)
        with open(os.path.join(global_step_folder, "actor", "toy_state.json"), encoding="utf-8") as f:
            self.policy = Policy.from_json(json.load(f))

    def _save_checkpoint(self) -> None:
        local = os.path.join(self.config.trainer.default_local_dir, f"global_step_{self.global_steps}")
        print(f"Saving checkpoint to {local}", flush=True)
        os.makedirs(os.path.join(local, "actor"), exist_ok=True)
        with open(os.path.join(local, "actor", "toy_state.json"), "w", encoding="utf-8") as f:
            json.dump(self.policy.to_json(), f)
        if self.config.actor_rollout_ref.actor.checkpoint.async_save:
            return
        with open(os.path.join(self.config.trainer.default_local_dir, "latest_checkpointed_iteration.txt"), "w") as f:
            f.write(str(self.global_steps))

    # ----- steps -----
    def _validate(self) -> Dict[str, float]:
        scores = []
        for i in range(VAL_SIZE):
            x, y = self._problem("test", i)
            probs = self.policy.distribution(x, y)
            answer = answer_for(STRATEGIES[probs.index(max(probs))], x, y)
            scores.append(1.0 if answer == x + y else 0.0)
        return {f"val-core/{DATA_SOURCE}/reward/mean@1": sum(scores) / len(scores)}

    def _advantages(self, scores: List[float], n: int) -> List[float]:
        algo = self.config.algorithm
        out: List[float] = []
        if algo.adv_estimator in ("gae", "reinforce_plus_plus"):
            mean = sum(scores) / len(scores)
            std = math.sqrt(sum((s - mean) ** 2 for s in scores) / len(scores)) + 1e-6
            return [(s - mean) / std if algo.adv_estimator == "reinforce_plus_plus" else s - mean for s in scores]
        if algo.adv_estimator not in ("grpo", "rloo"):
            raise NotImplementedError(f"Advantage estimator {algo.adv_estimator} is not supported by the miniature")
        for k in range(0, len(scores), n):
            group = scores[k : k + n]
            mean = sum(group) / len(group)
            if algo.adv_estimator == "rloo":
                out.extend((s - (sum(group) - s) / max(len(group) - 1, 1)) for s in group)
                continue
            std = math.sqrt(sum((s - mean) ** 2 for s in group) / max(len(group) - 1, 1))
            out.extend((s - mean) / (std + 1e-6) if algo.norm_adv_by_std_in_grpo else s - mean for s in group)
        return out

    def _step(self) -> tuple:
        cfg = self.config
        n = cfg.actor_rollout_ref.rollout.n
        rng = random.Random(f"rollout:{self.seed}:{self.global_steps}")
        t0 = time.time()
        rows, logps = [], []
        for x, y in self._batch(self.global_steps):
            uid = hashlib.sha1(f"{self.global_steps}:{x}:{y}:{len(rows)}".encode()).hexdigest()[:8]
            for r in range(n):
                i, logp = self.policy.sample(x, y, rng, cfg.actor_rollout_ref.rollout.temperature)
                answer = answer_for(STRATEGIES[i], x, y)
                score = reward_for(answer, x, y, self.global_steps, self.total_training_steps)
                rows.append({"x": x, "y": y, "choice": i, "output": f"The answer is {answer}.", "score": score, "uid": f"{uid}_{r}_0"})
                logps.append(logp)
        t_gen = time.time() - t0
        advantages = self._advantages([r["score"] for r in rows], n)
        lr = cfg.actor_rollout_ref.actor.optim.lr * DEMO_LR_SCALE
        grad_norm = self.policy.update([(r["x"], r["y"], r["choice"], a) for r, a in zip(rows, advantages)], lr)
        time.sleep(step_seconds(1.0))
        resp = [float(len(r["output"]) // 4 + 1) for r in rows]
        prompt = [float(len(question(r["x"], r["y"])) // 4 + 4) for r in rows]
        scores = [r["score"] for r in rows]
        metrics: Dict[str, Any] = {
            "actor/entropy": -sum(logps) / len(logps),
            "actor/pg_loss": -sum(advantages) / len(advantages),
            "actor/pg_clipfrac": 0.0,
            "actor/ppo_kl": 0.0,
            "actor/grad_norm": grad_norm,
            "actor/lr": cfg.actor_rollout_ref.actor.optim.lr,
            "training/global_step": self.global_steps,
            "training/epoch": (self.global_steps - 1) // self.steps_per_epoch,
            **_stats("critic/score", scores),
            **_stats("critic/rewards", scores),
            **_stats("critic/advantages", advantages),
            **_stats("critic/returns", advantages),
            **_stats("response_length", resp),
            "response_length/clip_ratio": 0.0,
            **_stats("prompt_length", prompt),
            "prompt_length/clip_ratio": 0.0,
        }
        return rows, metrics, t_gen

    def _dump_rollouts(self, rows: List[Dict[str, Any]], folder: str) -> None:
        os.makedirs(folder, exist_ok=True)
        filename = os.path.join(folder, f"{self.global_steps}.jsonl")
        with open(filename, "w") as f:
            for r in sorted(rows, key=lambda r: r["uid"]):
                entry = {
                    "input": f"user\n{question(r['x'], r['y'])}\nassistant\n",
                    "output": r["output"],
                    "gts": str(r["x"] + r["y"]),
                    "score": r["score"],
                    "step": self.global_steps,
                    "uid": r["uid"],
                }
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")
        print(f"Dumped generations to {filename}", flush=True)

    def fit(self) -> None:
        trainer = self.config.trainer
        from omegaconf import OmegaConf

        logger = Tracking(trainer.project_name, trainer.experiment_name, list(trainer.logger), OmegaConf.to_container(self.config))
        if trainer.get("val_before_train", True):
            val_metrics = self._validate()
            pprint(f"Initial validation metrics: {val_metrics}")
            logger.log(data=val_metrics, step=self.global_steps)
            if trainer.get("val_only", False):
                logger.finish()
                return
        current_epoch = self.global_steps // self.steps_per_epoch
        self.global_steps += 1
        last_val: Optional[Dict[str, float]] = None
        while current_epoch < trainer.total_epochs and self.global_steps <= self.total_training_steps:
            is_last_step = self.global_steps >= self.total_training_steps
            start = time.time()
            rows, metrics, t_gen = self._step()
            if trainer.save_freq > 0 and (is_last_step or self.global_steps % trainer.save_freq == 0):
                self._save_checkpoint()
            if trainer.test_freq > 0 and (is_last_step or self.global_steps % trainer.test_freq == 0):
                val = self._validate()
                last_val = val if is_last_step else last_val
                metrics.update(val)
            step_time = time.time() - start
            tokens = sum(metrics[k] for k in ("response_length/mean", "prompt_length/mean")) * len(rows)
            metrics.update({
                "timing_s/gen": t_gen,
                "timing_s/step": step_time,
                "perf/total_num_tokens": tokens,
                "perf/time_per_step": step_time,
                "perf/throughput": tokens / max(step_time, 1e-9) / max(trainer.n_gpus_per_node * trainer.nnodes, 1),
            })
            if trainer.get("rollout_data_dir", None):
                self._dump_rollouts(rows, trainer.rollout_data_dir)
            logger.log(data=metrics, step=self.global_steps)
            self.global_steps += 1
            current_epoch = (self.global_steps - 1) // self.steps_per_epoch
            if is_last_step:
                pprint(f"Final validation metrics: {last_val}")
                break
        logger.finish()
