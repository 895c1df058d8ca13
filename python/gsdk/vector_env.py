"""gsdk.VectorEnv: n games of one gsdk game stepped together, with Gymnasium 1.x's vector-environment conventions
(reset(seed, options) -> (obs, info); step(actions) -> (obs, rewards, terminated, truncated, info); spaces; the
same-step auto-reset with the final observation in info), for reinforcement learning and batched search.

Actions are the game's move codes (0 .. num_actions-1): an agent sees one fixed action space and a mask of the
legal actions of each game. Every array has the environments along its first axis. With Gymnasium installed the
class is a gymnasium.vector.VectorEnv and its spaces are Gymnasium's; without it, the same API with gsdk.spaces'
local classes. docs/python.md shows it in use.
"""

import numpy as np

from . import _gsdk
from . import spaces
from ._config_json import config_json
from ._plugin_dirs import plugin_dirs

try:  # a gymnasium.vector.VectorEnv where Gymnasium is installed, so that its wrappers accept it
    from gymnasium.vector import VectorEnv as _Base
except ImportError:  # pragma: no cover - depends on the interpreter
    _Base = object

try:  # Gymnasium 1.1 names its modes in an enum; older versions and no Gymnasium: the enum's value
    from gymnasium.vector import AutoresetMode as _AutoresetMode
    SAME_STEP = _AutoresetMode.SAME_STEP
except ImportError:  # pragma: no cover - depends on the interpreter
    SAME_STEP = "SameStep"


def _initial_states(states, num_envs, state_size, game_name):
    """reset(options={"states": ...})'s states as the n games' bytes, back to back."""
    from .game import State

    if isinstance(states, State):
        states = [states] * num_envs
    states = list(states)
    if len(states) != num_envs:
        raise ValueError(f"reset: options['states'] holds {len(states)} states, expected one gsdk.State or "
                         f"{num_envs} (one per environment)")
    rows = []
    for k, state in enumerate(states):
        if not isinstance(state, State):
            raise TypeError(f"reset: options['states'][{k}] is a {type(state).__name__}, expected a gsdk.State "
                            f"(from gsdk.load_game('{game_name}'))")
        if state.game_name != game_name:
            raise ValueError(f"reset: options['states'][{k}] is a state of '{state.game_name}', expected one of "
                             f"'{game_name}'")
        rows.append(state.state_bytes())
    data = b"".join(rows)
    if len(data) != num_envs * state_size:
        raise ValueError(f"reset: options['states'] are not states of this environment's game (its parameters "
                         f"differ: {len(data) // num_envs} bytes a state, expected {state_size})")
    return data


class VectorEnv(_Base):
    """n games of `game` stepped together on the CPU's threads or on a CUDA device, with Gymnasium's conventions.

    VectorEnv(game, n, seed=0, params=None, device="cpu", threads=None, plugin_dir=None, max_episode_steps=None,
              final_observation=None)

    game:    a game name as gsdk.list() shows it ("othello", "minefield", ...); the game needs move codes (the
             plugin's gsdk.move_codes.v1 table).
    n:       the number of games (num_envs).
    seed:    the seed of every random choice (chance nodes, random_actions()): game k draws from the stream
             (seed, k), so the same seed gives the same trajectories on any number of threads and on the CPU or GPU.
             reset(seed=s) starts the streams over from s.
    params:  the game's parameters, a dict {name: value} as [params] of an experiment takes.
    device:  "cpu", or "cuda" / "cuda:K" for a game with CUDA step tables: the games stay in the device's memory,
             and the arrays returned are gsdk.DeviceArray objects, which torch.from_dlpack() and jax take without a
             copy (a.numpy() copies to the host).
    threads: CPU threads stepping the games (default: all).
    plugin_dir: a folder, or a list of folders, searched for plugins first (as the CLI's --plugin-dir).
    max_episode_steps: an episode that has made this many steps (moves of any player) without ending is truncated
             and restarted (None: no limit).
    final_observation: whether info carries each ended episode's last observation ("final_obs"). None (the
             default): where the game's tables allow it (always on the CPU; on CUDA, plugins with ABI 1.13's
             cuda_step_keeping_final); True where they do not is a ValueError. It costs a second observation pass.

    reset(seed=None, options=None) -> (obs, info)
        every game from its initial state, or from options={"states": one gsdk.State or n of them};
        obs has shape (n, *observation_shape).
    step(actions) -> (obs, rewards, terminated, truncated, info)
        actions:    n move codes (a numpy array, or a device array with __dlpack__ of int32/uint32 on device="cuda");
                    an action that is not legal in its game raises ValueError naming the game, and no game moves.
        rewards:    float32 (n,), the reward of the player who made the move (for a one-player game, its reward):
                    0 unless the step ended the game; then the score for a one-player game, and +1 to the winner, -1
                    to the loser, 0 each for a draw for two players. info["rewards"] has every player's, (n, players).
        terminated: bool (n,), the games the step ended by the rules; truncated: bool (n,), the games the step limit
                    ended (never both).
        Same-step auto-reset (Gymnasium's AutoresetMode.SAME_STEP, metadata["autoreset_mode"]): a game that ended is
        back at its initial state already, and obs (and the mask, the players) are those of the new game; the
        ended episode's last observation is info["final_obs"][k] where info["_final_obs"][k] (terminated or
        truncated).
    info: {"action_mask": bool (n, num_actions), "current_player": int32 (n,), and after a step "rewards",
           "final_obs", "_final_obs" (with final observations), "final_info" and "_final_info" (empty: gsdk has no
           per-episode info)}.

    Also: legal_actions_mask(), current_player(), random_actions() (a uniform legal action per game from its
    stream), states() (uint8 (n, state size), a copy), close(). Calls from several threads wait for each other.
    The observation is the game's own tensor where its plugin provides one (gsdk.observations.v1: Othello's
    planes of the discs of the player to move and of the opponent, ...), else the state's bytes as uint8. Every
    call is synchronous: when it returns, its arrays are complete, and they stay valid (a later step writes new
    ones).
    """

    metadata = {"autoreset_mode": SAME_STEP, "render_modes": []}
    render_mode = None
    spec = None

    def __init__(self, game, n, seed=0, params=None, device="cpu", threads=None, plugin_dir=None,
                 max_episode_steps=None, final_observation=None):
        if max_episode_steps is not None and (int(max_episode_steps) != max_episode_steps or max_episode_steps < 1):
            raise ValueError(f"VectorEnv: max_episode_steps={max_episode_steps!r}, expected None or an integer >= 1")
        self._game_name = game
        self.closed = True  # until the environment exists: repr() of one whose construction failed says so
        params_json = config_json({"params": dict(params or {})}, "VectorEnv")
        self._env = _gsdk.VectorEnv(game, n, seed, params_json, device, threads, plugin_dirs(plugin_dir),
                                    int(max_episode_steps or 0), final_observation)
        self.closed = False
        self.num_envs = self._env.num_envs
        dtype = np.dtype(self._env.observation_dtype)
        low, high = spaces.bounds(dtype)
        shape = tuple(self._env.observation_shape)
        self.single_observation_space = spaces.Box(low, high, shape, dtype)
        self.single_action_space = spaces.Discrete(self._env.num_actions)
        self.observation_space = spaces.Box(low, high, (self.num_envs, *shape), dtype)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, self._env.num_actions))

    def _live(self):
        if self.closed:
            raise RuntimeError("this gsdk.VectorEnv is closed")
        return self._env

    def _info(self):
        env = self._live()
        return {"action_mask": env.legal_actions_mask(), "current_player": env.current_player()}

    def reset(self, seed=None, options=None):
        """Every game from its initial state (or options["states"]): returns (obs, info). A seed starts every game's
        random stream over from it; without one the streams go on."""
        env = self._live()
        options = dict(options or {})
        unknown = sorted(set(options) - {"states"})
        if unknown:
            raise ValueError(f"reset: unknown options {unknown}; gsdk.VectorEnv takes 'states' (one gsdk.State or "
                             f"one per environment)")
        if seed is not None and (isinstance(seed, bool) or int(seed) != seed or seed < 0):
            raise ValueError(f"reset: seed={seed!r}, expected None or an integer >= 0")
        if "states" in options:
            if seed is not None:
                env.reset(int(seed))
            obs = env.reset_from_states(_initial_states(options["states"], self.num_envs, env.state_size,
                                                        self._game_name))
        else:
            obs = env.reset(None if seed is None else int(seed))
        return obs, self._info()

    def step(self, actions):
        """One move code per game: returns (obs, rewards, terminated, truncated, info) as the class says."""
        env = self._live()
        obs, rewards, terminated, truncated, mover_rewards, ended, final_obs = env.step(actions)
        info = self._info()
        info["rewards"] = rewards
        if final_obs is not None:
            info["final_obs"] = final_obs
            info["_final_obs"] = ended
        info["final_info"] = {}
        info["_final_info"] = ended
        return obs, mover_rewards, terminated, truncated, info

    def legal_actions_mask(self):
        """bool (n, num_actions): the legal actions of the games as they stand."""
        return self._live().legal_actions_mask()

    def current_player(self):
        """int32 (n,): the player to move in each game."""
        return self._live().current_player()

    def random_actions(self):
        """uint32 (n,): a legal action per game, drawn uniformly from the game's stream."""
        return self._live().random_actions()

    def states(self):
        """uint8 (n, state size): the games' states as the plugin stores them (a copy)."""
        return self._live().states()

    def close(self, **kwargs):
        """Frees the games; arrays already returned stay valid. Later calls raise RuntimeError."""
        self._env = None
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def num_actions(self):
        """The number of move codes: actions are 0 .. num_actions-1."""
        return self._live().num_actions

    @property
    def num_players(self):
        """1 or 2."""
        return self._live().num_players

    @property
    def observation_shape(self):
        """The shape of one game's observation."""
        return self._live().observation_shape

    @property
    def observation_dtype(self):
        """numpy's dtype of the observations (uint8 or float32)."""
        return self._live().observation_dtype

    @property
    def device(self):
        """"cpu" or "cuda:K"."""
        return self._live().device

    @property
    def max_episode_steps(self):
        """The step limit, or None."""
        return self._live().max_episode_steps or None

    @property
    def final_observation(self):
        """Whether info carries the final observations."""
        return self._live().final_observations

    @property
    def unwrapped(self):
        return self

    def __repr__(self):
        if self.closed:
            return "gsdk.VectorEnv(closed)"
        return (f"gsdk.VectorEnv('{self._game_name}', n={self.num_envs}, num_actions={self.num_actions}, "
                f"observation_shape={self.observation_shape}, device='{self.device}')")
