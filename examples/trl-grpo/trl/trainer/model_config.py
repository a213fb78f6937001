"""ModelConfig: which model to load and how (here only recorded: the toy policy is the model)."""

from dataclasses import dataclass, field


@dataclass
class ModelConfig:
    model_name_or_path: str | None = field(
        default=None, metadata={"help": "Model checkpoint for weights initialization."}
    )
    model_revision: str = field(default="main", metadata={"help": "Specific model version to use."})
    dtype: str | None = field(default="float32", metadata={"help": "Override the default `torch.dtype`."})
    trust_remote_code: bool = field(default=False, metadata={"help": "Whether to allow for custom models defined on the Hub."})
    attn_implementation: str | None = field(default=None, metadata={"help": "Which attention implementation to use."})
    use_peft: bool = field(default=False, metadata={"help": "Whether to use PEFT for training."})
    lora_r: int = field(default=16, metadata={"help": "LoRA R value."})
    lora_alpha: int = field(default=32, metadata={"help": "LoRA alpha."})
