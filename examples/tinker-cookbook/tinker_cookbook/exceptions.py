"""The cookbook's own exception types (the ones the miniature raises)."""


class TinkerCookbookError(Exception):
    """Base class of errors raised by cookbook code."""


class ConfigurationError(TinkerCookbookError, ValueError):
    """A configuration value is invalid or missing (e.g. a log directory that must not exist)."""


class CheckpointError(TinkerCookbookError):
    """A checkpoint cannot be found or read."""
