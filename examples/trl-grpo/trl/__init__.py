"""TRL stand-in: GRPOConfig, GRPOTrainer, ModelConfig, ScriptArguments and TrlParser over the toy policy."""

from trl.scripts.utils import ScriptArguments, TrlParser
from trl.trainer.grpo_config import GRPOConfig
from trl.trainer.grpo_trainer import GRPOTrainer
from trl.trainer.model_config import ModelConfig

__all__ = ["GRPOConfig", "GRPOTrainer", "ModelConfig", "ScriptArguments", "TrlParser"]
