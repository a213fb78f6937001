"""_BaseConfig: the TrainingArguments every TRL trainer config extends, with TRL's own defaults for a few fields."""

from dataclasses import dataclass, field

from transformers import TrainingArguments


@dataclass
class _BaseConfig(TrainingArguments):
    # Fields of TrainingArguments whose default TRL changes.
    logging_steps: float = field(
        default=10,
        metadata={
            "help": "Log every X updates steps. Should be an integer or a float in range `[0,1)`. If smaller than 1, "
            "will be interpreted as ratio of total training steps."
        },
    )
    gradient_checkpointing: bool = field(
        default=True,
        metadata={"help": "Enable gradient checkpointing to trade compute for memory."},
    )
    bf16: bool | None = field(
        default=None,
        metadata={"help": "Whether to use bf16 (mixed) precision instead of 32-bit. If not set, it defaults to `True` if `fp16` is not set."},
    )

    def __post_init__(self):
        self.bf16 = not (self.fp16) if self.bf16 is None else self.bf16
        super().__post_init__()
