"""A tiny stand-in for the Atropos library (atroposlib), standard library only.

Enough of the real package for the demo environments to be written like real ones:
`from atroposlib.envs.base import BaseEnv, BaseEnvConfig, APIServerConfig, ScoredDataGroup, Field`.
"""
