"""GRPOConfig: the GRPO trainer's settings, a dataclass over _BaseConfig (and so over TrainingArguments).

The fields and defaults are those of trl/trainer/grpo_config.py that a toy run can honour (the vLLM, liger, tool and
multimodal fields are left out), read from a recipe YAML (`--config`) and `--key value` by TrlParser; __post_init__
raises the real configuration errors.
"""

from dataclasses import dataclass, field

from trl.trainer.base_config import _BaseConfig


@dataclass
class GRPOConfig(_BaseConfig):
    learning_rate: float = field(default=1e-6, metadata={"help": "The initial learning rate for AdamW."})
    remove_unused_columns: bool | None = field(
        default=False,
        metadata={"help": "Whether to only keep the column 'prompt' in the dataset."},
    )
    num_generations: int | None = field(
        default=8,
        metadata={
            "help": "Number of generations to sample. The effective batch size (num_processes * per_device_batch_size "
            "* gradient_accumulation_steps) must be evenly divisible by this value."
        },
    )
    max_completion_length: int | None = field(
        default=512, metadata={"help": "Maximum length of the generated completion."}
    )
    shuffle_dataset: bool | None = field(default=True, metadata={"help": "Whether to shuffle the training dataset."})
    generation_batch_size: int | None = field(
        default=None,
        metadata={"help": "Batch size to use for generation. If `None`, it defaults to the effective training batch size."},
    )
    steps_per_generation: int | None = field(
        default=None,
        metadata={"help": "Number of steps per generation. If `None`, it defaults to `gradient_accumulation_steps`."},
    )
    temperature: float = field(
        default=1.0,
        metadata={"help": "Temperature for sampling. The higher the temperature, the more random the completions."},
    )
    top_p: float = field(default=1.0, metadata={"help": "Cumulative probability of the top tokens to consider."})
    use_vllm: bool = field(default=False, metadata={"help": "Whether to use vLLM for generating completions."})
    beta: float = field(default=0.0, metadata={"help": "KL coefficient. If `0.0`, the reference model is not loaded."})
    num_iterations: int = field(default=1, metadata={"help": "Number of iterations per batch (denoted as μ in the algorithm)."})
    epsilon: float = field(default=0.2, metadata={"help": "Epsilon value for clipping."})
    reward_weights: list[float] | None = field(
        default=None, metadata={"help": "Weights for each reward function. Must match the number of reward functions."}
    )
    scale_rewards: str = field(
        default="group",
        metadata={"help": "Specifies the scaling strategy for rewards. Supported values are: `group`, `batch`, `none`."},
    )
    loss_type: str = field(default="dapo", metadata={"help": "Specifies the loss formulation to use."})
    mask_truncated_completions: bool = field(
        default=False, metadata={"help": "When enabled, truncated completions are excluded from the loss calculation."}
    )
    log_completions: bool = field(
        default=False,
        metadata={"help": "Whether to log a sample of (prompt, completion) pairs every `logging_steps` steps."},
    )
    num_completions_to_print: int | None = field(
        default=None, metadata={"help": "Number of completions to print with `rich`. If `None`, all completions are logged."}
    )

    def __post_init__(self):
        super().__post_init__()
        self.scale_rewards = {True: "group", False: "none"}.get(self.scale_rewards, self.scale_rewards)
        if self.auto_find_batch_size:
            raise ValueError(
                "auto_find_batch_size is not supported by GRPO, because the generation batch must contain full "
                "prompt groups of num_generations completions, and reducing the batch size on out-of-memory breaks "
                "this invariant. Set auto_find_batch_size=False and lower per_device_train_batch_size instead."
            )
        num_processes = self.world_size
        if self.generation_batch_size is None and self.steps_per_generation is None:
            self.steps_per_generation = self.gradient_accumulation_steps
            self.generation_batch_size = self.per_device_train_batch_size * num_processes * self.steps_per_generation
        elif self.generation_batch_size is not None and self.steps_per_generation is None:
            if self.generation_batch_size % (self.per_device_train_batch_size * num_processes) != 0:
                raise ValueError(
                    f"generation_batch_size ({self.generation_batch_size}) must be divisible by the global batch size "
                    f"({self.per_device_train_batch_size * num_processes})."
                )
            self.steps_per_generation = self.generation_batch_size // (self.per_device_train_batch_size * num_processes)
        elif self.generation_batch_size is None and self.steps_per_generation is not None:
            self.generation_batch_size = self.per_device_train_batch_size * num_processes * self.steps_per_generation
        else:
            raise ValueError("'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time")
        if self.generation_batch_size % self.num_generations != 0:
            raise ValueError(
                f"generation_batch_size ({self.generation_batch_size}) must be divisible by num_generations "
                f"({self.num_generations})."
            )
        if self.num_generations < 2:
            raise ValueError(
                "GRPO requires at least 2 generations per prompt to calculate the advantages. You provided "
                f"{self.num_generations}, which is less than the minimum required."
            )
