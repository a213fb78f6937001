"""The math RL recipe (the miniature only has the toy arithmetic environment)."""
