"""GRPOTrainer on the toy policy: sample num_generations completions per prompt, score them with the reward
functions, normalise rewards per group (scale_rewards), one policy-gradient step, and log GRPO's metric names.

Miniature-only: RL_DEMO_FAULT=collapse inverts the rewards after half the steps (the reward collapses mid-run), and
RL_DEMO_STEP_SECONDS sets the time a step takes (default 1.0 s; stands in for generation and the backward pass).
"""

import math
import os
import random
import time
from typing import Any, Callable, Dict, List, Optional

from transformers import Trainer
from trl.toy_policy import STRATEGIES, Policy, answer_for, step_seconds
from trl.trainer.grpo_config import GRPOConfig

# The toy policy needs far bigger steps than a 1e-6 learning rate: its Adam step is learning_rate times this.
DEMO_LR_SCALE = 1e5


def _mean(xs: List[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _std(xs: List[float]) -> float:
    if len(xs) < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


class GRPOTrainer(Trainer):
    def __init__(
        self,
        model: str,
        reward_funcs: List[Callable[..., List[Optional[float]]]],
        args: GRPOConfig,
        train_dataset: List[Dict[str, Any]],
        eval_dataset: Optional[List[Dict[str, Any]]] = None,
    ) -> None:
        super().__init__(args, train_dataset)
        self.model_id = model
        self.reward_funcs = reward_funcs
        self.reward_weights = args.reward_weights or [1.0] * len(reward_funcs)
        if len(self.reward_weights) != len(reward_funcs):
            raise ValueError(
                f"Number of reward weights ({len(self.reward_weights)}) must match number of reward "
                f"functions ({len(reward_funcs)})"
            )
        self.policy = Policy()
        self._metrics: Dict[str, List[float]] = {}
        self._tokens = 0

    def steps_per_epoch(self) -> int:
        completions_per_step = self.args.per_device_train_batch_size * self.args.gradient_accumulation_steps
        return max(math.ceil(len(self.train_dataset) * self.args.num_generations / completions_per_step), 1)

    def model_state(self) -> Dict[str, Any]:
        return {"model": self.model_id, **self.policy.to_json()}

    def load_model_state(self, data: Dict[str, Any]) -> None:
        self.policy = Policy.from_json(data)

    def _record(self, key: str, value: float) -> None:
        self._metrics.setdefault(key, []).append(value)

    def training_step(self, step: int) -> Dict[str, float]:
        args = self.args
        prompts_per_step = max(
            args.per_device_train_batch_size * args.gradient_accumulation_steps // args.num_generations, 1
        )
        rng = random.Random(f"grpo:{args.seed}:{step}")
        rows = [self.train_dataset[rng.randrange(len(self.train_dataset))] for _ in range(prompts_per_step)]
        completions, choices, logps, columns = [], [], [], []
        for row in rows:
            for _ in range(args.num_generations):
                i, logp = self.policy.sample(row["x"], row["y"], rng, args.temperature)
                completions.append(f"The answer is {answer_for(STRATEGIES[i], row['x'], row['y'])}.")
                choices.append((row["x"], row["y"], i))
                logps.append(logp)
                columns.append(row)
        total = [0.0] * len(completions)
        for func, weight in zip(self.reward_funcs, self.reward_weights):
            values = func(completions=completions, answer=[r["answer"] for r in columns], prompts=[r["prompt"] for r in columns])
            values = [0.0 if v is None else float(v) for v in values]
            if os.environ.get("RL_DEMO_FAULT") == "collapse" and step > self.state.max_steps // 2:
                values = [1.0 - v for v in values]
            self._record(f"rewards/{func.__name__}/mean", _mean(values))
            self._record(f"rewards/{func.__name__}/std", _std(values))
            total = [t + weight * v for t, v in zip(total, values)]
        advantages: List[float] = []
        zero_std = 0
        g = args.num_generations
        for k in range(0, len(total), g):
            group = total[k : k + g]
            std = _std(group)
            zero_std += std < 1e-6
            scale = std + 1e-4 if args.scale_rewards in ("group", "batch") else 1.0
            advantages.extend((r - _mean(group)) / scale for r in group)
        lengths = [len(c) // 4 + 1 for c in completions]
        self._tokens += sum(lengths) + sum(len(r["prompt"]) // 4 + 1 for r in columns)
        self._record("num_tokens", float(self._tokens))
        self._record("completions/mean_length", _mean(lengths))
        self._record("completions/min_length", float(min(lengths)))
        self._record("completions/max_length", float(max(lengths)))
        self._record("completions/clipped_ratio", 0.0)
        self._record("reward", _mean(total))
        self._record("reward_std", _std(total))
        self._record("frac_reward_zero_std", zero_std / max(len(total) // g, 1))
        lr = args.learning_rate * (1 - (step - 1) / max(self.state.max_steps, 1)) * DEMO_LR_SCALE
        grad_norm = self.policy.update([(x, y, i, a) for (x, y, i), a in zip(choices, advantages)], lr)
        self._record("entropy", -_mean(logps))
        for key in ("clip_ratio/low_mean", "clip_ratio/low_min", "clip_ratio/high_mean", "clip_ratio/high_max", "clip_ratio/region_mean"):
            self._record(key, 0.0)
        time.sleep(step_seconds(1.0))
        return {"loss": -_mean([a * math.exp(0.0) for a in advantages]), "grad_norm": grad_norm}

    def log(self, logs: Dict[str, float], start_time: Optional[float] = None) -> None:
        if "train_runtime" not in logs:
            for key, values in self._metrics.items():
                valid = [v for v in values if not math.isnan(v)]
                logs[key] = sum(valid) / len(valid) if valid else None  # type: ignore[assignment]
            self._metrics.clear()
        super().log(logs, start_time)
