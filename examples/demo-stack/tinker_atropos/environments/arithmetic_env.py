"""Arithmetic: choose the result of a small sum, difference or product."""

import random
from typing import Any, List, Literal, Optional, Tuple

from atroposlib.envs.base import APIServerConfig, BaseEnv, BaseEnvConfig, Field, ScoredDataGroup
from tinker_atropos.environments._common import (
    ChoiceItem,
    build_messages,
    build_scored_group,
    evaluate_choices,
    sample_completions,
    score_choice,
)

OPERATION_WORDS = {"add": "plus", "sub": "minus", "mul": "times"}


class ArithmeticEnvConfig(BaseEnvConfig):
    """Settings of the arithmetic environment."""

    max_operand: int = Field(default=20, ge=1, le=1000, description="Largest operand in a question")
    difficulty: Literal["easy", "hard"] = Field(
        default="easy", description="easy: operands up to max_operand; hard: up to 10x and two more choices"
    )
    operations: List[str] = Field(default=["add", "sub", "mul"], description="Operations to ask about: add, sub, mul")
    seed: Optional[int] = Field(default=None, description="Seed for the question generator (None: random)")
    temperature: float = Field(default=1.0, ge=0.0, le=2.0, description="Sampling temperature for rollouts")
    shuffle_choices: bool = Field(default=True, description="Shuffle the answer choices")
    num_choices: int = Field(default=4, ge=2, le=6, description="Answer choices per question")


class ArithmeticEnv(BaseEnv):
    """Pick the result of a small addition, subtraction or multiplication from a list of choices.

    The wrong choices are the results of the other operations and near misses, so a policy
    has to learn which operation each word ("plus", "minus", "times") stands for.
    """

    name = "arithmetic"
    env_config_cls = ArithmeticEnvConfig

    @classmethod
    def config_init(cls) -> Tuple[ArithmeticEnvConfig, List[APIServerConfig]]:
        env_config = ArithmeticEnvConfig(
            group_size=8,
            wandb_name="arithmetic",
            ensure_scores_are_not_same=False,
            max_token_length=1024,
        )
        server_configs = [
            APIServerConfig(model_name="demo-policy", base_url="http://localhost:8001/v1", api_key="x"),
        ]
        return env_config, server_configs

    async def setup(self) -> None:
        unknown = [op for op in self.config.operations if op not in OPERATION_WORDS]
        if unknown or not self.config.operations:
            raise ValueError(
                f"operations must be a non-empty subset of {sorted(OPERATION_WORDS)}, got {self.config.operations}"
            )
        self.rng = random.Random(self.config.seed)

    def make_item(self, rng: random.Random) -> ChoiceItem:
        top = self.config.max_operand * (10 if self.config.difficulty == "hard" else 1)
        n_choices = min(6, self.config.num_choices + (2 if self.config.difficulty == "hard" else 0))
        a, b = rng.randint(1, top), rng.randint(1, top)
        op = rng.choice(self.config.operations)
        results = {"add": a + b, "sub": a - b, "mul": a * b}
        answer = results[op]
        choices = [answer]
        for other in ("add", "sub", "mul"):
            if len(choices) < n_choices and results[other] not in choices:
                choices.append(results[other])
        offset = 1
        while len(choices) < n_choices:
            for candidate in (answer + offset, answer - offset):
                if len(choices) < n_choices and candidate not in choices:
                    choices.append(candidate)
            offset += 1
        if self.config.shuffle_choices:
            rng.shuffle(choices)
        else:
            choices.sort()
        return ChoiceItem(
            question=f"What is {a} {OPERATION_WORDS[op]} {b}?",
            choices=[str(c) for c in choices],
            answer=str(answer),
            meta={"operation": op},
        )

    def score(self, item: ChoiceItem, response: Optional[str]) -> float:
        return score_choice(response, item.answer)

    async def get_next_item(self) -> ChoiceItem:
        return self.make_item(self.rng)

    async def collect_trajectories(self, item: ChoiceItem) -> Tuple[Optional[ScoredDataGroup], List[Any]]:
        messages = build_messages(item)
        completions = await sample_completions(self, messages, self.config.group_size, self.config.temperature)
        group = build_scored_group(
            self,
            messages,
            completions,
            lambda text: self.score(item, text),
            {"temperature": self.config.temperature, "max_tokens": 64, "n": self.config.group_size},
        )
        return group, []

    async def evaluate(self, *args: Any, **kwargs: Any) -> None:
        await evaluate_choices(self, self.make_item, 4321, 32)


if __name__ == "__main__":
    ArithmeticEnv.cli()
