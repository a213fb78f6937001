"""Checkpoint folder naming and lookup, as transformers.trainer_utils has them."""

import os
import re
from typing import Optional

PREFIX_CHECKPOINT_DIR = "checkpoint"
_re_checkpoint = re.compile(r"^" + PREFIX_CHECKPOINT_DIR + r"\-(\d+)$")


def get_last_checkpoint(folder: str) -> Optional[str]:
    """The checkpoint-N folder with the highest N in folder, or None."""
    checkpoints = [
        path
        for path in os.listdir(folder)
        if _re_checkpoint.search(path) is not None and os.path.isdir(os.path.join(folder, path))
    ]
    if not checkpoints:
        return None
    return os.path.join(folder, max(checkpoints, key=lambda x: int(_re_checkpoint.search(x).groups()[0])))
