"""Inference server configs and the client that talks to them."""
