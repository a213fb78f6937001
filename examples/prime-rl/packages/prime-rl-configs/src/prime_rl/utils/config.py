"""BaseConfig, as pydantic_config defines it: extra keys forbidden, the string "None" read as None."""

from pydantic import BaseModel, ConfigDict, model_validator


class BaseConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _none_str_to_none(cls, data):
        if not isinstance(data, dict):
            return data
        return {key: (None if value == "None" else value) for key, value in data.items()}
