"""Config dicts as the JSON text the module's parser reads (it writes TOML from it and parses that as a file). TOML
has no NaN or infinity among an experiment's values and JSON has none at all, so a non-finite float is refused here,
by its dotted key, as a gsdk.ConfigError, before json.dumps would write a literal no parser takes."""

import json
import math

from ._gsdk import ConfigError


def _refuse_non_finite(value, path, source):
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{source}: {path or 'the value'} = {value}: expected a finite number")
    if isinstance(value, dict):
        for key, item in value.items():
            _refuse_non_finite(item, f"{path}.{key}" if path else str(key), source)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _refuse_non_finite(item, f"{path}[{index}]", source)


def config_json(config, source="<dict>"):
    """json.dumps(config), refusing NaN and infinities by key (a gsdk.ConfigError naming source and the key)."""
    _refuse_non_finite(config, "", source)
    return json.dumps(config)
