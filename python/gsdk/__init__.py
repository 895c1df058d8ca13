"""gsdk from Python: the plugins and games gsdk sees, experiments and perft counts, run by gsdk's host library,
vectorised environments (gsdk.VectorEnv) of any game with move codes, and any game's rules one state at a time
(gsdk.load_game).

The functions return plain Python objects (dicts, lists, ints, strings): the same documents the gsdk command
writes, so a run's digest here equals `gsdk run`'s for the same config. docs/python.md shows each in use.

Errors raise gsdk.ConfigError (a bad key or value, located as file:line:column like the CLI's messages),
gsdk.PluginError (an unknown game: the message names the loaded ones) or gsdk.OutputError (a results file that
cannot be written), all subclasses of gsdk.Error; a VectorEnv or a run too large for the free memory raises
gsdk.MemoryRefusal, a MemoryError that says how much it needs and how much is free, before allocating. Ctrl-C during a run or a count asks it to stop, as SIGINT asks
the CLI, and raises KeyboardInterrupt once it has.
"""

import json
import os

from ._gsdk import ConfigError, DeviceArray, Error, MemoryRefusal, OutputError, PluginError
from . import _gsdk
from . import aec
from ._config_json import config_json
from .aec import AECEnv, aec_env
from .agent import Agent
from .game import PLAYER_CHANCE, PLAYER_TERMINAL, Game, State, load_game
from .vector_env import VectorEnv

__version__ = _gsdk.__version__  # gsdk's version, the CLI's `gsdk --version`

__all__ = ["__version__", "Error", "ConfigError", "PluginError", "OutputError", "MemoryRefusal", "list", "run", "perft", "PerftCount", "PerftDivide",
           "VectorEnv", "DeviceArray", "load_game", "Game", "State", "PLAYER_CHANCE", "PLAYER_TERMINAL", "Agent", "aec",
           "AECEnv", "aec_env"]


def list():  # noqa: A001 - the name of `gsdk list`
    """The plugins, games, parameters, capability tables and CUDA devices: the document of `gsdk list --json`."""
    return json.loads(_gsdk.list_json())


def _overrides(set):  # noqa: A002 - the keyword of run()
    """run()'s `set`: a dict {"section.key": value} or a list of "section.key=value" texts, as --set takes."""
    if set is None:
        return []
    if isinstance(set, dict):
        # JSON's forms of strings, numbers and booleans are TOML's too.
        return [f"{key}={config_json(value, f'set[{key!r}]')}" for key, value in set.items()]
    return [str(item) for item in set]


def _run(config, set=None, device=None, threads=None, seed=None, out=None, source="<dict>"):  # noqa: A002
    overrides = _overrides(set)
    if out is not None:
        out = os.fspath(out)
    if isinstance(config, dict):
        text = _gsdk.run_json(None, config_json(config, source), source, overrides, device, threads, seed, out)
    else:
        text = _gsdk.run_json(os.fspath(config), None, source, overrides, device, threads, seed, out)
    return json.loads(text)


def run(config, set=None, device=None, threads=None, seed=None, out=None):  # noqa: A002 - the CLI's --set
    """Runs an experiment as `gsdk run` does and returns its results document as a dict.

    config: the path of an experiment file (TOML), or a dict with the same keys and tables
            ({"game": "graveler", "algorithm": "playouts", "playouts": {...}}); errors in a dict are located
            in "<dict>:line:column", the lines of the dict's TOML text.
    set:    overrides, as --set: a list of "section.key=value" texts or a dict {"section.key": value}.
    device, threads, seed: as --device, --threads and --seed.
    out:    where to write the results file; None (the default) writes none, the dict being the result. Files the
            config's [output] table names (events, plot) are written as by the CLI.
    """
    return _run(config, set=set, device=device, threads=threads, seed=seed, out=out)


class PerftCount(int):
    """perft()'s count: an int, with the transposition tables' statistics as `.hash` (None without hashing)."""

    hash = None  # noqa: A003 - the "hash" of the results file


class PerftDivide(dict):
    """perft(divide=True)'s {move: leaves}, with `.hash` as PerftCount's and the total as `.leaves`."""

    hash = None  # noqa: A003
    leaves = 0


def perft(game, position, depth, device="auto", params=None, divide=False, hash=True, hash_mb=0,  # noqa: A002
          gpu_hash_mb=0, threads=None):
    """The number of leaves of `game`'s move tree `depth` plies below `position` ("start" or the game's text form
    of a state), as `gsdk perft` counts them. With divide=True: a dict {move: leaves} per root move instead.

    params:      the game's parameters, a dict {name: value} as [params] of an experiment takes.
    hash:        transposition tables (the default): a subtree met again by another move order is counted once;
                 the counts are the same as with hash=False, which counts every path (`gsdk perft --no-hash`).
    hash_mb:     MiB of the CPU workers' table; gpu_hash_mb: MiB of each GPU's table (0: the default). A size with
                 hash=False is a ConfigError.
    threads:     CPU threads (as --threads; default: all). More threads split the root deeper, so the subtrees the
                 tables see are shallower.

    The result is an int (a dict with divide=True) whose `.hash` attribute holds what the tables did, the results
    file's "hash" object: {"enabled", "paths", "subtrees", "host": {"bytes", "slots", "filled", "probes", "hits",
    "stores"}, "device": {the same, the GPUs' summed}, "frontier_states", "duplicates"}; None with hash=False.
    """
    experiment = {
        "game": game,
        "algorithm": "perft",
        "params": dict(params or {}),
        "perft": {
            "divide": bool(divide),
            "hash": bool(hash),
            "hash_mb": hash_mb,
            "gpu_hash_mb": gpu_hash_mb,
            "positions": [{"position": position, "depth": depth}],
        },
        "run": {"device": device},
    }
    counted = _run(experiment, threads=threads, source="<gsdk.perft>")["result"]["positions"][0]
    if divide:
        result = PerftDivide((entry["move"], int(entry["leaves"])) for entry in counted["divide"])
        result.leaves = int(counted["leaves"])
    else:
        result = PerftCount(int(counted["leaves"]))
    result.hash = counted.get("hash")
    return result
