"""The miniature's "model": a softmax policy over ways of answering `What is x + y?`, trained with Adam.

Instead of tokens, the policy picks one of a few answer strategies (the true sum, off-by-one,
off-by-ten, the difference, one operand, ...), scored by sparse weights on features of the
strategy and the problem (carry in the ones digit, sum over 100). All weights start at 0, so a
fresh policy is right about 1 time in 8; policy-gradient steps with a group-mean baseline teach
it to add. Weights and Adam moments are plain dicts, saved as JSON by demo_service.
"""

import math
import random
from typing import Dict, List, Sequence, Tuple

# "sum" last: a fresh policy's greedy answer (ties go to the first) is then wrong, as it should be.
STRATEGIES = ("sum+1", "sum-1", "sum+10", "sum-10", "diff", "first", "second", "sum")


def answer_for(strategy: str, x: int, y: int) -> int:
    s = x + y
    return {
        "sum": s, "sum+1": s + 1, "sum-1": s - 1, "sum+10": s + 10, "sum-10": s - 10,
        "diff": abs(x - y), "first": x, "second": y,
    }[strategy]


def problem_features(strategy: str, x: int, y: int) -> List[str]:
    carry = int(x % 10 + y % 10 >= 10)
    big = int(x + y >= 100)
    return [f"s:{strategy}", f"s:{strategy}|carry:{carry}", f"s:{strategy}|big:{big}"]


class Policy:
    """Log-linear policy over STRATEGIES with an Adam optimizer state."""

    def __init__(self) -> None:
        self.weights: Dict[str, float] = {}
        self.adam_m: Dict[str, float] = {}
        self.adam_v: Dict[str, float] = {}
        self.adam_t = 0

    def logits(self, x: int, y: int) -> List[float]:
        return [sum(self.weights.get(f, 0.0) for f in problem_features(s, x, y)) for s in STRATEGIES]

    def greedy(self, x: int, y: int) -> int:
        """Index of the most likely strategy (the first on a tie)."""
        scores = self.logits(x, y)
        return scores.index(max(scores))

    def distribution(self, x: int, y: int, temperature: float = 1.0) -> List[float]:
        scores = self.logits(x, y)
        top = max(scores)
        unnormalized = [math.exp((v - top) / max(temperature, 1e-6)) for v in scores]
        total = sum(unnormalized)
        return [u / total for u in unnormalized]

    def sample(self, x: int, y: int, rng: random.Random, temperature: float) -> Tuple[int, float]:
        """(strategy index, log-probability under the sampling distribution)."""
        probs = self.distribution(x, y, temperature)
        i = rng.choices(range(len(STRATEGIES)), weights=probs)[0]
        return i, math.log(max(probs[i], 1e-12))

    def policy_gradient(self, samples: Sequence[Tuple[int, int, int, float]]) -> Dict[str, float]:
        """Mean gradient of advantage * log pi(choice) over samples (x, y, choice, advantage)."""
        grad: Dict[str, float] = {}
        for x, y, choice, adv in samples:
            if adv == 0.0:
                continue
            probs = self.distribution(x, y)
            for j, strategy in enumerate(STRATEGIES):
                coef = adv * ((1.0 if j == choice else 0.0) - probs[j])
                for f in problem_features(strategy, x, y):
                    grad[f] = grad.get(f, 0.0) + coef
        n = max(len(samples), 1)
        return {f: g / n for f, g in grad.items()}

    def adam_step(self, grad: Dict[str, float], lr: float, beta1: float = 0.9, beta2: float = 0.95, eps: float = 1e-8) -> None:
        """Gradient ascent with Adam (the real service's optimizer), on the features in grad."""
        self.adam_t += 1
        for f, g in grad.items():
            m = beta1 * self.adam_m.get(f, 0.0) + (1 - beta1) * g
            v = beta2 * self.adam_v.get(f, 0.0) + (1 - beta2) * g * g
            self.adam_m[f], self.adam_v[f] = m, v
            m_hat = m / (1 - beta1 ** self.adam_t)
            v_hat = v / (1 - beta2 ** self.adam_t)
            self.weights[f] = self.weights.get(f, 0.0) + lr * m_hat / (math.sqrt(v_hat) + eps)
