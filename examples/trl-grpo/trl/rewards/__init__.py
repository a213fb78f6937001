"""Reward functions with TRL's calling convention: (completions, **dataset columns) -> one float per completion."""

import re
from typing import List, Optional


def accuracy_reward(completions: List[str], answer: List[str], **kwargs) -> List[Optional[float]]:
    """1.0 when the last number in the completion equals the row's answer, else 0.0."""
    rewards: List[Optional[float]] = []
    for completion, truth in zip(completions, answer):
        numbers = re.findall(r"-?\d+", completion)
        rewards.append(1.0 if numbers and numbers[-1] == str(truth) else 0.0)
    return rewards


def think_format_reward(completions: List[str], **kwargs) -> List[Optional[float]]:
    """1.0 when the completion starts with a <think>...</think> block (the toy policy never writes one)."""
    return [1.0 if re.match(r"^<think>.*?</think>", c, re.DOTALL) else 0.0 for c in completions]
