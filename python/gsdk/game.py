"""gsdk.load_game: any plugin's rules one state at a time, in OpenSpiel's shape, for searches written in Python.

    game = gsdk.load_game("othello")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    state.returns()          # [1.0, -1.0]: black won

Actions are the game's move codes where it has them (the same actions as gsdk.VectorEnv's, 0 ..
game.num_distinct_actions-1), else the plugin's move numbers. docs/python.md, "One state at a time", lists every
method.
"""

from . import _gsdk
from ._config_json import config_json
from ._plugin_dirs import plugin_dirs

PLAYER_TERMINAL = _gsdk.PLAYER_TERMINAL
PLAYER_CHANCE = _gsdk.PLAYER_CHANCE
State = _gsdk.State


class Game(_gsdk.Game):
    """A game with its parameters: new_initial_state(), deserialize_state(text), and name, description,
    num_players, num_distinct_actions, max_moves, score_range."""

    def __repr__(self):
        return f"gsdk.Game('{self.name}', num_players={self.num_players})"


def load_game(name, params=None, plugin_dir=None):
    """The game `name` as gsdk.list() shows it, with its parameters.

    params:     a dict {name: value}, checked as an experiment's [params] table is (a located gsdk.ConfigError).
    plugin_dir: a folder, or a list of folders, searched for plugins first (as the CLI's --plugin-dir).
    Raises gsdk.PluginError naming the loaded games when none is called `name`.
    """
    return Game(name, config_json({"params": dict(params or {})}, "load_game"), plugin_dirs(plugin_dir))
