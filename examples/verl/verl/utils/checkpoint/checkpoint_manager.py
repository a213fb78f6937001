"""The checkpoint tracker: `<default_local_dir>/latest_checkpointed_iteration.txt` names the last complete
`global_step_N/`; a resume trusts it, not the folders it finds."""

import os
from typing import Optional


def get_checkpoint_tracker_filename(root_path: str) -> str:
    return os.path.join(root_path, "latest_checkpointed_iteration.txt")


def find_latest_ckpt_path(path: Optional[str], directory_format: str = "global_step_{}") -> Optional[str]:
    if path is None:
        return None
    tracker_file = get_checkpoint_tracker_filename(path)
    if not os.path.exists(tracker_file):
        print(f"Checkpoint tracker file does not exist: {tracker_file}", flush=True)
        return None
    with open(tracker_file, "rb") as f:
        iteration = int(f.read().decode())
    ckpt_path = os.path.join(path, directory_format.format(iteration))
    if not os.path.exists(ckpt_path):
        print("Checkpoint does not exist: %s", ckpt_path, flush=True)
        return None
    print("Found checkpoint: %s", ckpt_path, flush=True)
    return ckpt_path
