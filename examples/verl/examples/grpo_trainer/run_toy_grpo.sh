#!/usr/bin/env bash
# GRPO on the toy arithmetic task, as verl's examples/grpo_trainer/*.sh scripts run their models: the trainer's
# config plus overrides. About 40 s; RL_DEMO_STEP_SECONDS=0 makes it instant.
set -x

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=32 \
    data.max_prompt_length=64 \
    data.max_response_length=16 \
    actor_rollout_ref.actor.optim.lr=1e-6 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=8 \
    trainer.logger='["console","file"]' \
    trainer.project_name=verl_toy \
    trainer.experiment_name=toy_grpo \
    trainer.total_training_steps=40 \
    trainer.save_freq=10 \
    trainer.test_freq=10 \
    trainer.rollout_data_dir=outputs/rollouts \
    trainer.n_gpus_per_node=1 "$@"
