"""The RL training loop."""
