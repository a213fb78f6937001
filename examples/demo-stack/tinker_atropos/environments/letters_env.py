"""Letters: name the first, second or last letter of a word."""

import random
from typing import Any, List, Optional, Tuple

from atroposlib.envs.base import APIServerConfig, BaseEnv, BaseEnvConfig, ScoredDataGroup
from tinker_atropos.environments._common import (
    ChoiceItem,
    build_messages,
    build_scored_group,
    evaluate_choices,
    sample_completions,
    score_choice,
)

WORDS = [
    "apple", "banjo", "candle", "dragon", "eagle", "forest", "garden", "harbor", "island", "jungle",
    "kettle", "lemon", "marble", "needle", "orange", "pencil", "quartz", "rocket", "silver", "tunnel",
    "velvet", "window", "yellow", "zipper", "bridge", "cactus", "desert", "engine", "falcon", "guitar",
    "hammer", "insect", "jacket", "kitten", "ladder", "mirror", "napkin", "oyster", "parrot", "rabbit",
]
POSITIONS = {"first": 0, "second": 1, "last": -1}


class LettersEnv(BaseEnv):
    """Name the first, second or last letter of a word, choosing among letters of that word."""

    name = "letters"

    @classmethod
    def config_init(cls) -> Tuple[BaseEnvConfig, List[APIServerConfig]]:
        env_config = BaseEnvConfig(
            group_size=8,
            total_steps=30,
            wandb_name="letters",
            max_token_length=512,
            ensure_scores_are_not_same=False,
            steps_per_eval=10,
        )
        server_configs = [
            APIServerConfig(
                model_name="demo-policy",
                base_url="http://localhost:8001/v1",
                api_key="x",
                num_requests_for_eval=32,
            )
        ]
        return env_config, server_configs

    async def setup(self) -> None:
        self.rng = random.Random()
        self.words = [w for w in WORDS if len({w[0], w[1], w[-1]}) == 3]

    def make_item(self, rng: random.Random) -> ChoiceItem:
        word = rng.choice(self.words)
        position = rng.choice(sorted(POSITIONS))
        answer = word[POSITIONS[position]]
        choices = [word[0], word[1], word[-1]]
        extra = [c for c in "aeiourstln" if c not in choices]
        choices.append(rng.choice(extra))
        rng.shuffle(choices)
        return ChoiceItem(question=f"What is the {position} letter of '{word}'?", choices=choices, answer=answer)

    def score(self, item: ChoiceItem, response: Optional[str]) -> float:
        return score_choice(response, item.answer)

    async def get_next_item(self) -> ChoiceItem:
        return self.make_item(self.rng)

    async def collect_trajectories(self, item: ChoiceItem) -> Tuple[Optional[ScoredDataGroup], List[Any]]:
        messages = build_messages(item)
        completions = await sample_completions(self, messages, self.config.group_size, 1.0)
        group = build_scored_group(
            self, messages, completions, lambda text: self.score(item, text), {"temperature": 1.0, "n": self.config.group_size}
        )
        return group, []

    async def evaluate(self, *args: Any, **kwargs: Any) -> None:
        """Greedy answers on a fixed set of questions (abstract in BaseEnv, so every environment has one)."""
        await evaluate_choices(self, self.make_item, 2024, 20)


if __name__ == "__main__":
    LettersEnv.cli()
