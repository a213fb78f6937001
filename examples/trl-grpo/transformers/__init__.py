"""transformers stand-in for the TRL miniature: TrainingArguments, Trainer (its loop, logs and checkpoints), no models."""

from transformers.trainer import Trainer, TrainerState
from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR, get_last_checkpoint
from transformers.training_args import TrainingArguments

__all__ = ["PREFIX_CHECKPOINT_DIR", "Trainer", "TrainerState", "TrainingArguments", "get_last_checkpoint"]
