"""Parity: is a number even or odd? Derives from ChoiceEnvBase (in _common.py), not BaseEnv directly."""

import random
from typing import Optional

from atroposlib.envs.base import Field
from tinker_atropos.environments._common import ChoiceEnvBase, ChoiceEnvConfig, ChoiceItem, score_choice


class ParityEnvConfig(ChoiceEnvConfig):
    """Parity settings on top of the shared multiple-choice settings."""

    max_number: int = Field(default=999, ge=1, le=1_000_000, description="Largest number asked about")
    shuffle_choices: bool = Field(default=True, description="Shuffle the order of 'even' and 'odd'")


class ParityEnv(ChoiceEnvBase):
    """Tell whether a whole number is even or odd."""

    name = "parity"
    env_config_cls = ParityEnvConfig

    def make_item(self, rng: random.Random) -> ChoiceItem:
        n = rng.randint(0, self.config.max_number)
        choices = ["even", "odd"]
        if self.config.shuffle_choices:
            rng.shuffle(choices)
        return ChoiceItem(question=f"Is {n} even or odd?", choices=choices, answer="even" if n % 2 == 0 else "odd")

    def score(self, item: ChoiceItem, response: Optional[str]) -> float:
        """1.0 for the right word ("odd", "Odd.", "odd number"), 0.0 otherwise."""
        if isinstance(response, str) and response.strip().lower().endswith(" number"):
            response = response.strip()[: -len(" number")]
        return score_choice(response, item.answer)


if __name__ == "__main__":
    ParityEnv.cli()
