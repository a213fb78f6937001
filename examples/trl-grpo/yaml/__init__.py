"""PyYAML stand-in for the miniature: `yaml.safe_load` and `yaml.YAMLError`, backed by a copy of
examples/demo-stack/demo_yaml.py (a YAML 1.1 reader typing plain scalars as PyYAML does)."""

from yaml._reader import YAMLError, loads

__all__ = ["YAMLError", "safe_load"]


def safe_load(stream):
    """A document from a string or a text stream, as yaml.safe_load reads it (one document, no tags)."""
    return loads(stream if isinstance(stream, str) else stream.read())
