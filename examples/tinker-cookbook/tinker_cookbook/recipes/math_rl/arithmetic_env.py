"""The toy arithmetic dataset: batches of `What is x + y?` problems, reproducible from (seed, batch index)."""

import random
from typing import List, Optional, Tuple

import chz


@chz.chz
class ArithmeticDatasetBuilder:
    """Builds the training batches (groups_per_batch problems each) and a fixed test set."""

    batch_size: int
    group_size: int
    model_name_for_tokenizer: str
    renderer_name: Optional[str] = None
    n_batches: int = 50
    include_fewshot: bool = True
    seed: int = 0

    def get_batch(self, index: int) -> List[Tuple[int, int]]:
        # Same problems for the same batch index, so a resumed run sees the batches it would have.
        rng = random.Random(f"arithmetic:{self.seed}:{index}")
        return [(rng.randint(0, 100), rng.randint(0, 100)) for _ in range(self.batch_size)]

    def test_set(self, size: int = 100) -> List[Tuple[int, int]]:
        rng = random.Random("arithmetic:test")
        return [(rng.randint(0, 100), rng.randint(0, 100)) for _ in range(size)]

    def __len__(self) -> int:
        return self.n_batches


def question(x: int, y: int) -> str:
    return f"What is {x} + {y}?"
