"""datasets stand-in: `load_dataset("toy/arithmetic")` gives train/test splits of `What is x + y?` prompts; any other
name fails as the Hub does for a missing dataset."""

import random
from typing import Any, Dict, List


class DatasetNotFoundError(FileNotFoundError):
    pass


def _rows(seed: str, count: int) -> List[Dict[str, Any]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        x, y = rng.randint(0, 99), rng.randint(0, 99)
        rows.append({"prompt": f"What is {x} + {y}?", "answer": str(x + y), "x": x, "y": y})
    return rows


def load_dataset(path: str, name: Any = None, streaming: bool = False) -> Dict[str, List[Dict[str, Any]]]:
    if path != "toy/arithmetic":
        raise DatasetNotFoundError(f"Dataset '{path}' doesn't exist on the Hub or cannot be accessed.")
    return {"train": _rows("train", 256), "test": _rows("test", 64)}
