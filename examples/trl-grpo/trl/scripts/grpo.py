"""`python -m trl.scripts.grpo --config recipe.yaml [--key value ...]`: TRL's GRPO script (what `trl grpo` runs).

As in TRL, unknown keys in the YAML are dropped silently (fail_with_unknown_args=False) while unknown command-line
arguments raise, and `trainer.train()` is called without `resume_from_checkpoint`: this script never resumes, whatever
`--resume_from_checkpoint` says (huggingface/trl#3179). Use a script that passes it on, like ../train_grpo.py.
No SIGTERM handler, as in TRL: the default action ends the process (the steps since the last checkpoint are lost).
"""

from dataclasses import dataclass, field

from trl import GRPOConfig, GRPOTrainer, ModelConfig, ScriptArguments, TrlParser


@dataclass
class GRPOScriptArguments(ScriptArguments):
    reward_model_name_or_path: str | None = field(
        default=None, metadata={"help": "Reward model id of a pretrained model hosted inside a model repo on huggingface.co."}
    )
    reward_funcs: list[str] | None = field(
        default=None,
        metadata={"help": "Reward functions to use. Supported values are: `accuracy_reward`, `think_format_reward`."},
    )


def reward_functions(script_args):
    from trl.rewards import accuracy_reward, think_format_reward

    registry = {"accuracy_reward": accuracy_reward, "think_format_reward": think_format_reward}
    funcs = []
    for name in script_args.reward_funcs or []:
        if name not in registry:
            raise ValueError(f"Could not load reward function '{name}'. Expected one of {list(registry.keys())} or a valid import path.")
        funcs.append(registry[name])
    return funcs


def build_trainer(script_args, training_args, model_args):
    from datasets import load_dataset

    if not script_args.dataset_name:
        raise ValueError("Either `datasets` or `dataset_name` must be provided.")
    dataset = load_dataset(script_args.dataset_name, name=script_args.dataset_config, streaming=script_args.dataset_streaming)
    return GRPOTrainer(
        model=model_args.model_name_or_path,
        reward_funcs=reward_functions(script_args),
        args=training_args,
        train_dataset=dataset[script_args.dataset_train_split],
        eval_dataset=dataset[script_args.dataset_test_split] if training_args.eval_strategy != "no" else None,
    )


def main(script_args, training_args, model_args):
    trainer = build_trainer(script_args, training_args, model_args)
    trainer.train()
    print("✅ Training completed.", flush=True)
    trainer.save_model(training_args.output_dir)
    print(f"💾 Model saved to {training_args.output_dir}.", flush=True)


def make_parser(prog: str | None = None):
    return TrlParser((GRPOScriptArguments, GRPOConfig, ModelConfig), prog=prog)


if __name__ == "__main__":
    from transformers.trainer import setup_logging

    setup_logging()
    parser = make_parser()
    script_args, training_args, model_args = parser.parse_args_and_config(fail_with_unknown_args=False)
    main(script_args, training_args, model_args)
