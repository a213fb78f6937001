"""`python3 -m verl.trainer.main_ppo [key=value ...]`: verl's PPO/GRPO entry point, a Hydra app over
verl/trainer/config/ppo_trainer.yaml (see ../../hydra for the override syntax and its errors). verl runs the trainer
in a Ray actor; the miniature runs it in this process. Neither has a SIGTERM handler."""

from pprint import pprint

import hydra
from omegaconf import OmegaConf

from verl.trainer.ppo.ray_trainer import RayPPOTrainer


def run_ppo(config) -> None:
    pprint(OmegaConf.to_container(config, resolve=True))
    OmegaConf.resolve(config)
    trainer = RayPPOTrainer(config=config)
    trainer.init()
    trainer.fit()


@hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)
def main(config) -> None:
    run_ppo(config)


if __name__ == "__main__":
    main()
