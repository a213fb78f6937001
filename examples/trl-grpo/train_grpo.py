"""`python train_grpo.py --config recipes/<name>.yaml [--key value ...]`: a team's own GRPO script on TRL, in the shape
most of them take (open-r1's grpo.py): TRL's parser and trainer, and a resume that TRL's own script lacks.

Resume: a run pointed at an output_dir that holds checkpoint-N folders continues from the last one; or
`--resume_from_checkpoint <output_dir>/checkpoint-N` takes that one (a fork, when output_dir is another folder: the
checkpoint's global_step and log_history come along). The value is a path: `--resume_from_checkpoint True` arrives
as the string "True" and fails with "Can't find a valid checkpoint at True", as it does on the real Trainer.
Unknown keys, in the YAML or on the command line, raise a ValueError naming them (exit 1). No SIGTERM handler.
"""

import logging
import os

from transformers import get_last_checkpoint
from transformers.trainer import setup_logging
from trl.scripts.grpo import build_trainer, make_parser

logger = logging.getLogger(__name__)


def main() -> None:
    setup_logging()
    script_args, training_args, model_args = make_parser().parse_args_and_config()
    last_checkpoint = None
    if os.path.isdir(training_args.output_dir):
        last_checkpoint = get_last_checkpoint(training_args.output_dir)
    if last_checkpoint is not None and training_args.resume_from_checkpoint is None:
        logger.info(f"Checkpoint detected, resuming training at {last_checkpoint=}.")
    trainer = build_trainer(script_args, training_args, model_args)
    checkpoint = None
    if training_args.resume_from_checkpoint is not None:
        checkpoint = training_args.resume_from_checkpoint
    elif last_checkpoint is not None:
        checkpoint = last_checkpoint
    metrics = trainer.train(resume_from_checkpoint=checkpoint)
    logger.info(f"*** Train metrics *** {metrics}")
    trainer.save_model(training_args.output_dir)
    logger.info(f"Model saved to {training_args.output_dir}")


if __name__ == "__main__":
    main()
