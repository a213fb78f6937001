"""Type aliases shared by environments, as in atroposlib.type_definitions."""

from typing import Any, Dict

Item = Any
Message = Dict[str, Any]
UUID = str
