"""TrainingArguments: the fields of transformers' class that the GRPO loop reads, with transformers' defaults.

The real class has about 120 fields; these are the ones the miniature's loop uses or a GRPO recipe commonly sets.
Like the real one, `resume_from_checkpoint` is a string that the Trainer itself never reads: a script passes it to
`trainer.train(resume_from_checkpoint=...)` (TRL's own `trl grpo` script does not).
"""

from dataclasses import dataclass, field
from typing import Optional, Union


@dataclass
class TrainingArguments:
    output_dir: Optional[str] = field(
        default=None,
        metadata={"help": "The output directory where the model predictions and checkpoints will be written."},
    )
    do_train: bool = field(default=False, metadata={"help": "Whether to run training."})
    do_eval: bool = field(default=False, metadata={"help": "Whether to run eval on the dev set."})
    eval_strategy: str = field(default="no", metadata={"help": "The evaluation strategy to use."})
    per_device_train_batch_size: int = field(
        default=8, metadata={"help": "Batch size per device accelerator core/CPU for training."}
    )
    per_device_eval_batch_size: int = field(
        default=8, metadata={"help": "Batch size per device accelerator core/CPU for evaluation."}
    )
    gradient_accumulation_steps: int = field(
        default=1,
        metadata={"help": "Number of updates steps to accumulate before performing a backward/update pass."},
    )
    learning_rate: float = field(default=5e-5, metadata={"help": "The initial learning rate for AdamW."})
    weight_decay: float = field(default=0.0, metadata={"help": "Weight decay for AdamW if we apply some."})
    max_grad_norm: float = field(default=1.0, metadata={"help": "Max gradient norm."})
    num_train_epochs: float = field(default=3.0, metadata={"help": "Total number of training epochs to perform."})
    max_steps: int = field(
        default=-1,
        metadata={"help": "If > 0: set total number of training steps to perform. Override num_train_epochs."},
    )
    lr_scheduler_type: str = field(default="linear", metadata={"help": "The scheduler type to use."})
    warmup_steps: float = field(default=0, metadata={"help": "Linear warmup over warmup_steps."})
    logging_dir: Optional[str] = field(default=None, metadata={"help": "Tensorboard log dir."})
    logging_strategy: str = field(default="steps", metadata={"help": "The logging strategy to use."})
    logging_first_step: bool = field(default=False, metadata={"help": "Log the first global_step"})
    logging_steps: float = field(
        default=500,
        metadata={
            "help": "Log every X updates steps. Should be an integer or a float in range `[0,1)`. If smaller than 1, "
            "will be interpreted as ratio of total training steps."
        },
    )
    save_strategy: str = field(default="steps", metadata={"help": "The checkpoint save strategy to use."})
    save_steps: float = field(
        default=500,
        metadata={
            "help": "Save checkpoint every X updates steps. Should be an integer or a float in range `[0,1)`. If "
            "smaller than 1, will be interpreted as ratio of total training steps."
        },
    )
    save_total_limit: Optional[int] = field(
        default=None, metadata={"help": "If a value is passed, will limit the total amount of checkpoints."}
    )
    seed: int = field(default=42, metadata={"help": "Random seed that will be set at the beginning of training."})
    bf16: bool = field(default=False, metadata={"help": "Whether to use bf16 (mixed) precision instead of 32-bit."})
    fp16: bool = field(default=False, metadata={"help": "Whether to use fp16 (mixed) precision instead of 32-bit"})
    run_name: Optional[str] = field(
        default=None, metadata={"help": "An optional descriptor for the run. Notably used for trackio, wandb."}
    )
    report_to: Union[None, str] = field(
        default="none", metadata={"help": "The list of integrations to report the results and logs to."}
    )
    resume_from_checkpoint: Optional[str] = field(
        default=None,
        metadata={"help": "The path to a folder with a valid checkpoint for your model."},
    )
    gradient_checkpointing: bool = field(
        default=False,
        metadata={"help": "If True, use gradient checkpointing to save memory at the expense of slower backward pass."},
    )
    auto_find_batch_size: bool = field(
        default=False,
        metadata={"help": "Whether to automatically decrease the batch size in half and rerun the training loop again."},
    )
    push_to_hub: bool = field(
        default=False, metadata={"help": "Whether or not to upload the trained model to the model hub after training."}
    )

    def __post_init__(self) -> None:
        if self.output_dir is None:
            self.output_dir = "trainer_output"
        if self.bf16 and self.fp16:
            raise ValueError("At most one of fp16 and bf16 can be True, but not both")

    @property
    def world_size(self) -> int:
        return 1
