"""The omegaconf errors verl and Hydra meet (names as in omegaconf.errors)."""


class OmegaConfBaseException(Exception):
    pass


class MissingMandatoryValue(OmegaConfBaseException):
    pass


class ConfigKeyError(OmegaConfBaseException, KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


class ConfigAttributeError(OmegaConfBaseException, AttributeError):
    pass


class InterpolationKeyError(OmegaConfBaseException):
    pass
