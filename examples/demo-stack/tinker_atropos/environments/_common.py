"""Shared pieces of the demo's multiple-choice environments: the prompt format, scoring,
turning completions into a ScoredDataGroup, and ChoiceEnvBase (a BaseEnv subclass that
concrete environments such as ParityEnv derive from)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

from atroposlib.envs.base import APIServerConfig, BaseEnv, BaseEnvConfig, Field, ScoredDataGroup

SYSTEM_PROMPT = "You are a careful assistant. Answer with exactly one of the listed choices and nothing else."
FAILURE_SCORE = 0.0
SUCCESS_SCORE = 1.0


@dataclass
class ChoiceItem:
    """One multiple-choice question; `answer` is one of `choices`."""

    question: str
    choices: List[str]
    answer: str
    meta: Dict[str, Any] = field(default_factory=dict)


def format_prompt(question: str, choices: List[str]) -> str:
    return f"{question}\nChoices: {' | '.join(choices)}\nAnswer with exactly one of the choices."


def build_messages(item: ChoiceItem, system_prompt: str = SYSTEM_PROMPT) -> List[Dict[str, str]]:
    return [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": format_prompt(item.question, item.choices)},
    ]


def normalize_answer(text: str) -> str:
    """Last non-empty line, without an "Answer:" prefix, quotes, \\boxed{} or a final period."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    s = lines[-1] if lines else ""
    if s.lower().startswith("answer:"):
        s = s[len("answer:"):].strip()
    s = s.strip().strip("'\"`*").rstrip(".").strip()
    if s.startswith("\\boxed{") and s.endswith("}"):
        s = s[len("\\boxed{"):-1].strip()
    return s.lower()


def score_choice(response: Any, answer: str) -> float:
    """1.0 when the response names the right answer, 0.0 otherwise (also for malformed output)."""
    if not isinstance(response, str) or not response.strip():
        return FAILURE_SCORE
    return SUCCESS_SCORE if normalize_answer(response) == normalize_answer(answer) else FAILURE_SCORE


def completion_text(choice: Any) -> Optional[str]:
    """The text of one completion choice (chat or prompt style), or None when malformed."""
    message = getattr(choice, "message", None)
    content = getattr(message, "content", None) if message is not None else getattr(choice, "text", None)
    return content if isinstance(content, str) else None


async def sample_completions(env: BaseEnv, messages: List[Dict[str, str]], n: int, temperature: float) -> List[Any]:
    """n completions for `messages`; asks again when an endpoint ignores `n` (some hosted ones do)."""
    choices: List[Any] = []
    for _ in range(n):
        completion = await env.server.chat_completion(
            messages=messages,
            n=n - len(choices),
            max_tokens=min(64, env.config.max_token_length),
            temperature=temperature,
        )
        got = list(getattr(completion, "choices", None) or [])
        if not got:
            break
        choices.extend(got)
        if len(choices) >= n:
            break
    return choices[:n]


def build_scored_group(
    env: BaseEnv,
    messages: List[Dict[str, str]],
    completions: List[Any],
    score_fn: Callable[[Optional[str]], float],
    generation_params: Dict[str, Any],
) -> ScoredDataGroup:
    """Tokenize prompt + completion (prompt positions masked with -100) and score each completion.

    As with a transformers tokenizer: apply_chat_template returns the prompt's token ids, and a
    completion ends with the tokenizer's eos_token (Qwen's <|im_end|>)."""
    prompt_tokens = list(env.tokenizer.apply_chat_template(messages, add_generation_prompt=True))
    group: ScoredDataGroup = {
        "tokens": [],
        "masks": [],
        "scores": [],
        "advantages": None,
        "ref_logprobs": None,
        "messages": [] if env.config.include_messages else None,
        "generation_params": generation_params,
        "inference_logprobs": None,
        # no "group_overrides" key: the real base.py calls .get() on it, so None would drop every group
        "overrides": None,
        "images": None,
    }
    for choice in completions:
        text = completion_text(choice)
        reply = text if text is not None else ""
        completion_tokens = env.tokenizer.encode(reply + env.tokenizer.eos_token, add_special_tokens=False)
        group["tokens"].append(prompt_tokens + completion_tokens)
        group["masks"].append([-100] * len(prompt_tokens) + completion_tokens)
        group["scores"].append(float(score_fn(text)))
        if group["messages"] is not None:
            group["messages"].append(messages + [{"role": "assistant", "content": reply}])
    return group


async def evaluate_choices(env: Any, make_item: Callable[[random.Random], ChoiceItem], seed: int, total: int) -> None:
    """Greedy answers on a fixed set of questions, scored by the environment's score(); prints eval/percent_correct."""
    rng = random.Random(seed)
    correct = 0
    for _ in range(total):
        item = make_item(rng)
        completion = await env.server.chat_completion(messages=build_messages(item), n=1, max_tokens=64, temperature=0.0)
        got = list(getattr(completion, "choices", None) or [])
        correct += int(bool(got) and env.score(item, completion_text(got[0])) == SUCCESS_SCORE)
    print(f"eval/percent_correct: {correct / total:.4f}", flush=True)


class ChoiceEnvConfig(BaseEnvConfig):
    """Settings shared by the multiple-choice environments."""

    ensure_scores_are_not_same: bool = Field(
        default=False,
        description="Toy groups are often unanimous; keep them so the trainer's reward mean stays honest",
    )
    temperature: float = Field(default=1.0, ge=0.0, le=2.0, description="Sampling temperature for rollouts")
    seed: Optional[int] = Field(default=None, description="Seed for the item generator (None: a random seed)")
    eval_size: int = Field(default=50, ge=1, le=1000, description="Number of items in an evaluation pass")


class ChoiceEnvBase(BaseEnv):
    """Base for toy multiple-choice tasks: subclasses implement make_item(rng)."""

    env_config_cls = ChoiceEnvConfig

    @classmethod
    def config_init(cls) -> Tuple[ChoiceEnvConfig, List[APIServerConfig]]:
        env_config = cls.env_config_cls()
        server_configs = [
            APIServerConfig(model_name="demo-policy", base_url="http://localhost:8001/v1", api_key="x"),
        ]
        return env_config, server_configs

    async def setup(self) -> None:
        self.rng = random.Random(getattr(self.config, "seed", None))
        self.eval_rng_seed = 1234

    def make_item(self, rng: random.Random) -> ChoiceItem:
        raise NotImplementedError

    def score(self, item: ChoiceItem, response: Optional[str]) -> float:
        return score_choice(response, item.answer)

    async def get_next_item(self) -> ChoiceItem:
        return self.make_item(self.rng)

    async def collect_trajectories(self, item: ChoiceItem) -> Tuple[Optional[ScoredDataGroup], List[Any]]:
        messages = build_messages(item)
        temperature = getattr(self.config, "temperature", 1.0)
        completions = await sample_completions(self, messages, self.config.group_size, temperature)
        group = build_scored_group(
            self,
            messages,
            completions,
            lambda text: self.score(item, text),
            {"temperature": temperature, "max_tokens": min(64, self.config.max_token_length), "n": self.config.group_size},
        )
        return group, []

    async def evaluate(self, *args: Any, **kwargs: Any) -> None:
        await evaluate_choices(self, self.make_item, self.eval_rng_seed, getattr(self.config, "eval_size", 50))
