"""The demo trainer's "model": a log-linear softmax policy over the answer choices in a prompt.

A prompt the demo environments write looks like

    What is 7 plus 5?
    Choices: 12 | 2 | 35 | 13
    Answer with exactly one of the choices.

The policy scores each choice c with logit(c) = sum of weights of sparse features phi(q, c):
  * "c:<choice>"                      a bias per answer text
  * "d<digit>|c:<choice>"             last digit of each number in the question x answer text
  * "w:<word>|r:<relation>"           question word x relation between question and answer,
    where relations are arithmetic ("sum", "diff", "prod" of the first two numbers) or
    positional ("first", "second", "last" letter of a quoted word), else "none".
It starts uniform (all weights 0); REINFORCE with a group-mean baseline teaches it which
features matter (e.g. "plus" goes with "sum", digit 7 with "odd").
"""

from __future__ import annotations

import math
import random
import re
import threading
from typing import Dict, List, Optional, Sequence, Tuple

__all__ = ["parse_choice_prompt", "features", "SoftmaxPolicy", "FALLBACK_ANSWER"]

# What the policy says when a prompt has no choices to pick from (scores 0 everywhere).
FALLBACK_ANSWER = "I am not sure."

_WORD_RE = re.compile(r"[a-z]+")
_INT_RE = re.compile(r"(?<![\w.])-?\d+(?![\w.])")
_QUOTED_RE = re.compile(r"'([^'\s]+)'")
_STOPWORDS = {"the", "a", "an", "of", "is", "what", "or", "choices", "answer", "with", "exactly", "one", "choice"}


def parse_choice_prompt(text: Optional[str]) -> Optional[Tuple[str, List[str]]]:
    """(question, choices) from a user message with a `Choices: a | b | c` line, else None."""
    if not isinstance(text, str):
        return None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.lower().startswith("choices:"):
            choices = [c.strip() for c in stripped[len("choices:"):].split("|")]
            choices = [c for c in choices if c]
            if len(choices) < 2:
                return None
            question = "\n".join(lines[:i]).strip()
            return question, choices
    return None


def _relations(question: str, choice: str) -> List[str]:
    rels: List[str] = []
    ints = [int(x) for x in _INT_RE.findall(question)]
    c = choice.strip()
    if len(ints) >= 2 and re.fullmatch(r"-?\d+", c):
        a, b, v = ints[0], ints[1], int(c)
        if v == a + b:
            rels.append("sum")
        if v == a - b:
            rels.append("diff")
        if v == a * b:
            rels.append("prod")
    for word in _QUOTED_RE.findall(question):
        w = word.lower()
        cl = c.lower()
        if cl == w[:1]:
            rels.append("first")
        if len(w) > 1 and cl == w[1]:
            rels.append("second")
        if cl == w[-1:]:
            rels.append("last")
    return rels or ["none"]


def features(question: str, choice: str) -> List[str]:
    c = choice.strip().lower()
    feats = [f"c:{c}"]
    for n in _INT_RE.findall(question):
        feats.append(f"d{n[-1]}|c:{c}")
    words = sorted(set(_WORD_RE.findall(_QUOTED_RE.sub(" ", question.lower()))) - _STOPWORDS)
    for rel in _relations(question, choice):
        feats.append(f"r:{rel}")
        for w in words:
            feats.append(f"w:{w}|r:{rel}")
    return feats


class SoftmaxPolicy:
    """Thread-safe sparse linear softmax policy (the inference server reads while the trainer writes)."""

    def __init__(self, seed: Optional[int] = None):
        self.weights: Dict[str, float] = {}
        self._lock = threading.Lock()
        self._rng = random.Random(seed)
        self.version = 0

    def _logits(self, question: str, choices: Sequence[str]) -> List[float]:
        w = self.weights
        return [sum(w.get(f, 0.0) for f in features(question, c)) for c in choices]

    def distribution(self, question: str, choices: Sequence[str], temperature: float = 1.0) -> List[float]:
        with self._lock:
            logits = self._logits(question, choices)
        if temperature <= 0:
            best = max(range(len(choices)), key=lambda i: logits[i])
            return [1.0 if i == best else 0.0 for i in range(len(choices))]
        scaled = [x / temperature for x in logits]
        m = max(scaled)
        exps = [math.exp(x - m) for x in scaled]
        total = sum(exps)
        return [e / total for e in exps]

    def sample(self, question: str, choices: Sequence[str], n: int = 1, temperature: float = 1.0) -> List[Tuple[str, float]]:
        """n sampled answers with their log-probabilities under the current weights."""
        probs = self.distribution(question, choices, temperature)
        out = []
        with self._lock:
            for _ in range(n):
                i = self._rng.choices(range(len(choices)), weights=probs)[0]
                out.append((choices[i], math.log(max(probs[i], 1e-12))))
        return out

    def logprob(self, question: str, choices: Sequence[str], answer: str) -> Optional[float]:
        norm = [c.strip().lower() for c in choices]
        a = answer.strip().lower()
        if a not in norm:
            return None
        probs = self.distribution(question, choices)
        return math.log(max(probs[norm.index(a)], 1e-12))

    def reinforce_update(
        self, samples: Sequence[Tuple[str, List[str], str, float]], learning_rate: float
    ) -> float:
        """One policy-gradient step. samples: (question, choices, chosen answer, advantage).

        Returns the surrogate loss -sum(advantage * log pi(answer)) before the update.
        Answers that are not one of the choices carry no gradient (the policy never produced them).
        """
        grad: Dict[str, float] = {}
        loss = 0.0
        used = 0
        for question, choices, answer, adv in samples:
            norm = [c.strip().lower() for c in choices]
            a = answer.strip().lower()
            if a not in norm or adv == 0.0:
                continue
            idx = norm.index(a)
            probs = self.distribution(question, choices)
            loss -= adv * math.log(max(probs[idx], 1e-12))
            used += 1
            for j, c in enumerate(choices):
                coef = adv * ((1.0 if j == idx else 0.0) - probs[j])
                if coef == 0.0:
                    continue
                for f in features(question, c):
                    grad[f] = grad.get(f, 0.0) + coef
        if used:
            scale = learning_rate / used
            with self._lock:
                for f, g in grad.items():
                    self.weights[f] = self.weights.get(f, 0.0) + scale * g
                self.version += 1
        return loss
