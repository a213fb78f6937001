"""Command-line helpers: what to do when a run's log directory already exists."""

import logging
import shutil
from pathlib import Path
from typing import Literal

from tinker_cookbook.exceptions import ConfigurationError

logger = logging.getLogger(__name__)

LogdirBehavior = Literal["delete", "resume", "ask", "raise"]


def check_log_dir(log_dir: str, behavior_if_exists: LogdirBehavior) -> None:
    """Act on an existing log_dir: delete it, keep it (resume), ask on stdin, or raise.

    "ask" reads stdin with input(): with stdin closed it fails with EOFError, as the real one does.
    """
    if not Path(log_dir).exists():
        logger.info(f"Log directory {log_dir} does not exist. Will create it and start logging there.")
        return
    if behavior_if_exists == "delete":
        logger.info(f"Log directory {log_dir} already exists. Will delete it and start logging there.")
        shutil.rmtree(log_dir)
    elif behavior_if_exists == "ask":
        while True:
            answer = input(
                f"Log directory {log_dir} already exists. What do you want to do? [delete, resume, exit]: "
            )
            if answer == "delete":
                shutil.rmtree(log_dir)
                return
            if answer == "resume":
                return
            if answer == "exit":
                exit(0)
            logger.warning(f"Invalid input: {answer}. Please enter 'delete', 'resume', or 'exit'.")
    elif behavior_if_exists == "resume":
        return
    elif behavior_if_exists == "raise":
        raise ConfigurationError(f"Log directory {log_dir} already exists. Will not delete it.")
    else:
        raise AssertionError(f"Invalid behavior_if_exists: {behavior_if_exists}")
