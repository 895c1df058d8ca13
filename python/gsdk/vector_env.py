"""gsdk.VectorEnv: n games of one gsdk game stepped together, for reinforcement learning and batched search.

Actions are the game's move codes (0 .. num_actions-1): an agent sees one fixed action space and a mask of the
legal actions of each game. Every array has the environments along its first axis. docs/python.md shows it in use.
"""

import json

from . import _gsdk
from ._plugin_dirs import plugin_dirs


class VectorEnv(_gsdk.VectorEnv):
    """n games of `game` stepped together on the CPU's threads or on a CUDA device.

    VectorEnv(game, n, seed, params=None, device="cpu", threads=None, plugin_dir=None)

    game:    a game name as gsdk.list() shows it ("othello", "minefield", ...); the game needs move codes (the
             plugin's gsdk.move_codes.v1 table).
    n:       the number of games.
    seed:    the seed of every random choice (chance nodes, random_actions()): game k draws from the stream
             (seed, k), so the same seed gives the same trajectories on any number of threads and on the CPU or GPU.
    params:  the game's parameters, a dict {name: value} as [params] of an experiment takes.
    device:  "cpu", or "cuda" / "cuda:K" for a game with CUDA step tables: the games stay in the device's memory,
             and the arrays returned are gsdk.DeviceArray objects, which torch.from_dlpack() and cupy.from_dlpack()
             take without a copy (a.numpy() copies to the host).
    threads: CPU threads stepping the games (default: all).
    plugin_dir: a folder, or a list of folders, searched for plugins first (as the CLI's --plugin-dir).

    reset() -> obs                       every game from its initial state; obs has shape (n, *observation_shape)
    step(actions) -> (obs, rewards, terminated)
        actions:    n move codes (a numpy array, or a device array with __dlpack__ of int32/uint32 on device="cuda");
                    an action that is not legal in its game raises ValueError naming the game, and no game moves.
        rewards:    float32 (n, num_players), 0 unless the step ended the game; then the score for a one-player
                    game, and +1/-1/0 by the winner for two players.
        terminated: bool (n,), the games this step ended. Auto-reset: a game that ended is back at its initial
                    state already, and obs (and the mask, the players) are those of the new game.
    legal_actions_mask() -> bool (n, num_actions), of the games as they stand.
    current_player() -> int32 (n,), the player to move in each game.
    random_actions() -> uint32 (n,), a legal action per game drawn uniformly from its stream.
    states() -> uint8 (n, state size), the games' states as bytes (a copy).

    The observation is the game's own tensor where its plugin provides one (gsdk.observations.v1: Othello's
    planes of the discs of the player to move and of the opponent, ...), else the state's bytes as uint8. Every
    call is synchronous: when it returns, its arrays are complete, and they stay valid (a later step writes new
    ones).
    """

    def __init__(self, game, n, seed, params=None, device="cpu", threads=None, plugin_dir=None):
        super().__init__(game, n, seed, json.dumps({"params": dict(params or {})}), device, threads,
                         plugin_dirs(plugin_dir))

    def __repr__(self):
        return (f"gsdk.VectorEnv(n={self.num_envs}, num_actions={self.num_actions}, "
                f"observation_shape={self.observation_shape}, device='{self.device}')")
