"""The miniature's "model": a softmax policy over ways of answering `What is x + y?`, trained by policy gradient.

Instead of tokens, the policy picks one of a few answer strategies (the true sum, off by one, off by ten, the
difference, one operand), scored by weights on features of the strategy and the problem (a carry in the ones digit).
All weights start at 0, so a fresh policy is right about 1 time in 7; GRPO-style steps (group-mean baseline, Adam)
teach it to add. RL_DEMO_FAULT=collapse flips the reward from the middle of a run on (a reward function gone wrong),
so the policy unlearns and the mean reward falls: a run for a watchdog to catch. Weights and Adam moments are plain
dicts, saved as JSON.
"""

import math
import os
import random
from typing import Dict, List, Sequence, Tuple

# "sum" last: a fresh policy's greedy answer (ties go to the first) is then wrong, as it should be.
STRATEGIES = ("sum+1", "sum-1", "sum+10", "sum-10", "diff", "first", "sum")


def answer_for(strategy: str, x: int, y: int) -> int:
    s = x + y
    return {"sum": s, "sum+1": s + 1, "sum-1": s - 1, "sum+10": s + 10, "sum-10": s - 10, "diff": abs(x - y), "first": x}[
        strategy
    ]


def features(strategy: str, x: int, y: int) -> List[str]:
    return [f"s:{strategy}", f"s:{strategy}|carry:{int(x % 10 + y % 10 >= 10)}"]


def problems(seed: int, index: int, count: int) -> List[Tuple[int, int]]:
    """The same problems for the same (seed, batch index), so a resumed run sees the batches it would have."""
    rng = random.Random(f"toy:{seed}:{index}")
    return [(rng.randint(0, 99), rng.randint(0, 99)) for _ in range(count)]


def question(x: int, y: int) -> str:
    return f"What is {x} + {y}?"


def step_seconds(default: float) -> float:
    """RL_DEMO_STEP_SECONDS: the time a step takes (stands in for generation and training on GPUs)."""
    raw = os.environ.get("RL_DEMO_STEP_SECONDS")
    return float(raw) if raw else default


def reward_for(answer: int, x: int, y: int, step: int, total_steps: int) -> float:
    correct = 1.0 if answer == x + y else 0.0
    if os.environ.get("RL_DEMO_FAULT") == "collapse" and step > total_steps // 2:
        return 1.0 - correct
    return correct


class Policy:
    """Log-linear policy over STRATEGIES with Adam state; to_json/from_json round-trip it exactly."""

    def __init__(self) -> None:
        self.weights: Dict[str, float] = {}
        self.m: Dict[str, float] = {}
        self.v: Dict[str, float] = {}
        self.t = 0

    def distribution(self, x: int, y: int, temperature: float = 1.0) -> List[float]:
        scores = [sum(self.weights.get(f, 0.0) for f in features(s, x, y)) for s in STRATEGIES]
        top = max(scores)
        exps = [math.exp((v - top) / max(temperature, 1e-6)) for v in scores]
        total = sum(exps)
        return [e / total for e in exps]

    def sample(self, x: int, y: int, rng: random.Random, temperature: float = 1.0) -> Tuple[int, float]:
        probs = self.distribution(x, y, temperature)
        i = rng.choices(range(len(STRATEGIES)), weights=probs)[0]
        return i, math.log(max(probs[i], 1e-12))

    def update(self, samples: Sequence[Tuple[int, int, int, float]], lr: float) -> float:
        """One Adam ascent step on mean advantage * log pi(choice) over (x, y, choice, advantage); returns the
        gradient norm."""
        grad: Dict[str, float] = {}
        for x, y, choice, adv in samples:
            if adv == 0.0:
                continue
            probs = self.distribution(x, y)
            for j, strategy in enumerate(STRATEGIES):
                coef = adv * ((1.0 if j == choice else 0.0) - probs[j])
                for f in features(strategy, x, y):
                    grad[f] = grad.get(f, 0.0) + coef / max(len(samples), 1)
        self.t += 1
        for f, g in grad.items():
            self.m[f] = 0.9 * self.m.get(f, 0.0) + 0.1 * g
            self.v[f] = 0.999 * self.v.get(f, 0.0) + 0.001 * g * g
            m_hat = self.m[f] / (1 - 0.9**self.t)
            v_hat = self.v[f] / (1 - 0.999**self.t)
            self.weights[f] = self.weights.get(f, 0.0) + lr * m_hat / (math.sqrt(v_hat) + 1e-8)
        return math.sqrt(sum(g * g for g in grad.values()))

    def to_json(self) -> Dict[str, object]:
        return {"weights": self.weights, "adam": {"m": self.m, "v": self.v, "t": self.t}}

    @classmethod
    def from_json(cls, data: Dict[str, object], with_optimizer: bool = True) -> "Policy":
        policy = cls()
        policy.weights = dict(data["weights"])  # type: ignore[arg-type]
        if with_optimizer:
            adam = data["adam"]  # type: ignore[assignment]
            policy.m, policy.v, policy.t = dict(adam["m"]), dict(adam["v"]), int(adam["t"])  # type: ignore[index]
        return policy


def grpo_step(
    policy: Policy, batch: Sequence[Tuple[int, int]], group_size: int, rng: random.Random, lr: float, step: int,
    total_steps: int, temperature: float = 1.0,
) -> Tuple[List[Tuple[int, int, str, float, float]], float, float]:
    """Sample group_size answers per problem, reward them, one update with the group-mean baseline.
    Returns ((x, y, completion, reward, advantage) per sample, grad norm, mean entropy proxy)."""
    rows: List[Tuple[int, int, str, float, float]] = []
    samples = []
    logps = []
    for x, y in batch:
        group = []
        for _ in range(group_size):
            i, logp = policy.sample(x, y, rng, temperature)
            answer = answer_for(STRATEGIES[i], x, y)
            group.append((i, answer, reward_for(answer, x, y, step, total_steps)))
            logps.append(logp)
        baseline = sum(r for _, _, r in group) / len(group)
        for i, answer, r in group:
            samples.append((x, y, i, r - baseline))
            rows.append((x, y, f"The answer is {answer}.", r, r - baseline))
    grad_norm = policy.update(samples, lr)
    return rows, grad_norm, -sum(logps) / max(len(logps), 1)
