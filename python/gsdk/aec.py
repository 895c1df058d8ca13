"""gsdk.aec: a PettingZoo-style AEC (agent-environment-cycle) environment of any gsdk game with move codes.

    env = gsdk.aec.aec_env("othello", seed=1)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

The API is PettingZoo 1.24's AECEnv (agents "player_0" .. "player_{n-1}", observe() -> {"observation",
"action_mask"}, the None "dead step" of a done agent). It subclasses pettingzoo.AECEnv when PettingZoo is
installed and uses gymnasium's spaces when Gymnasium is; without them it is a plain class with the same API and
small local spaces. Chance nodes are resolved inside the env, so agent_selection is always a player.
docs/python.md, "gsdk.aec", describes the rewards and observations.
"""

import warnings

import numpy as np

from .game import PLAYER_CHANCE, PLAYER_TERMINAL, load_game
from .spaces import Box, Dict, Discrete, bounds

try:
    from pettingzoo import AECEnv as _Base
except ImportError:  # pragma: no cover - depends on the interpreter
    _Base = object


def _move_code(action):
    """action as an int move code, or None when it is not an integer (None, a bool, 2.5, "3")."""
    if isinstance(action, (bool, np.bool_, str, bytes)) or action is None:
        return None
    try:  # ints, numpy integers and 0-d arrays, and floats with an integer value (a learner's 3.0)
        code = int(action)
    except (TypeError, ValueError, OverflowError):
        return None
    return code if code == action else None


class AECEnv(_Base):
    """A gsdk game as a PettingZoo AEC environment: agents "player_0" .. take turns as current_player() says.

    AECEnv(game, params=None, plugin_dir=None, seed=None, max_steps=None, render_mode=None)

    game:       a name as gsdk.list() shows it, or a gsdk.Game (then params and plugin_dir are not taken); the
                game needs move codes (num_distinct_actions), the fixed action space.
    seed:       seeds the chance nodes' draws until reset(seed=...) reseeds them.
    max_steps:  agent moves after which an unfinished game is truncated (every agent truncations=True).
    render_mode: None or "ansi" (render() returns the state's text).
    """

    def __init__(self, game, params=None, plugin_dir=None, seed=None, max_steps=None, render_mode=None):
        if isinstance(game, str):
            game = load_game(game, params, plugin_dir)
        elif params is not None or plugin_dir is not None:
            raise ValueError("gsdk.aec: params and plugin_dir go with a game's name, not with a loaded gsdk.Game")
        if game.num_distinct_actions is None:
            raise ValueError(f"gsdk.aec: game '{game.name}' has no move codes (num_distinct_actions is None); "
                             "an AEC environment needs a fixed action space")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"gsdk.aec: render_mode {render_mode!r}; supported: None, 'ansi'")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"gsdk.aec: max_steps must be at least 1, not {max_steps}")
        self.game = game
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = {"name": f"gsdk_{game.name}", "is_parallelizable": False, "render_modes": ["ansi"]}
        self.possible_agents = [f"player_{p}" for p in range(game.num_players)]
        self._num_actions = int(game.num_distinct_actions)
        # The observation's shape and dtype are the initial state's: a game's tensor does not change shape.
        sample = game.new_initial_state().observation_tensor()
        low, high = bounds(sample.dtype)
        self.observation_spaces = {agent: Dict({
            "observation": Box(low, high, sample.shape, sample.dtype),
            "action_mask": Box(0, 1, (self._num_actions,), np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: Discrete(self._num_actions) for agent in self.possible_agents}
        self._rng = np.random.default_rng(seed)
        self._state = None
        self.agents = []

    # --- spaces and sizes ---------------------------------------------------------------------------------
    def observation_space(self, agent):
        """The Dict space of observe(agent): "observation" (a Box) and "action_mask" (int8 Box of 0/1)."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """Discrete(num_distinct_actions): the game's move codes."""
        return self.action_spaces[agent]

    @property
    def num_agents(self):
        """The number of live agents."""
        return len(self.agents)

    @property
    def max_num_agents(self):
        """The number of players."""
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        """This env (PettingZoo's wrappers' protocol)."""
        return self

    @property
    def game_state(self):
        """A copy of the underlying gsdk.State (a copy, so that changing it cannot desynchronise the env)."""
        return self._state.clone()

    # --- the cycle ------------------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        """Starts a new game. seed reseeds the chance draws; None continues the current generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._state = self.game.new_initial_state()
        self._steps = 0
        self._skip_agent_selection = None
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._settle(mover=None)

    def observe(self, agent):
        """{"observation": the state's observation_tensor(), "action_mask": int8 (num_distinct_actions,)}.

        The tensor is the game's view of the current state whichever agent asks (for Othello the side to move's);
        the mask has the legal actions only for agent_selection while it is live, zeros for the others, as
        PettingZoo's classic games do.
        """
        mask = np.zeros(self._num_actions, dtype=np.int8)
        live = agent == self.agent_selection and agent in self.terminations
        if live and not (self.terminations[agent] or self.truncations[agent]):
            mask[self._state.legal_actions()] = 1
        return {"observation": self._state.observation_tensor(), "action_mask": mask}

    def last(self, observe=True):
        """(observation, cumulative reward, termination, truncation, info) of agent_selection."""
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def agent_iter(self, max_iter=2**63):
        """Yields agent_selection until every agent is gone (or max_iter times), as PettingZoo's iterator does."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        """Plays agent_selection's action; None is the dead step that removes a terminated or truncated agent.

        An illegal action (or None from a live agent) raises ValueError and changes nothing.
        """
        if self._state is None or not self.agents:
            raise RuntimeError("gsdk.aec: step() before reset() or after every agent is done; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        legal = self._state.legal_actions()
        # Checked here, before anything changes, so that a refused action leaves the env exactly as it was.
        if _move_code(action) not in legal:
            raise ValueError(f"gsdk.aec: action {action!r} is not legal for {agent}; legal actions: {legal}")
        self._cumulative_rewards[agent] = 0.0  # the agent has seen its accumulated reward through last()
        self._clear_rewards()
        self._state.apply_action(_move_code(action))
        self._steps += 1
        self._settle(mover=agent)

    def _settle(self, mover):
        """Resolves chance nodes, then selects the player to move or marks the end (terminal or truncated)."""
        state = self._state
        while state.is_chance_node():
            # Drawn from the env's generator, so reset(seed) fixes every chance outcome of the episode.
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes], dtype=np.float64)
            pick = self._rng.choice(len(outcomes), p=probs / probs.sum())
            state.apply_action(outcomes[pick][0])
        if state.is_terminal():
            for agent, value in zip(self.possible_agents, state.returns()):
                self.rewards[agent] = float(value)
                self.terminations[agent] = True
            # The agent after the mover sees the end first; every agent then takes its dead step.
            after = 0 if mover is None else (self.possible_agents.index(mover) + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[after]
        else:
            player = state.current_player()
            assert player not in (PLAYER_CHANCE, PLAYER_TERMINAL) and 0 <= player < len(self.possible_agents), player
            self.agent_selection = self.possible_agents[player]
            if self.max_steps is not None and self._steps >= self.max_steps:
                for agent in self.agents:
                    self.truncations[agent] = True
        self._accumulate_rewards()

    def _clear_rewards(self):
        """Every live agent's step reward back to 0."""
        for agent in self.rewards:
            self.rewards[agent] = 0.0

    def _accumulate_rewards(self):
        """Adds the step's rewards to the cumulative ones that last() reports."""
        for agent, reward in self.rewards.items():
            self._cumulative_rewards[agent] += reward

    def _was_dead_step(self, action):
        """PettingZoo's dead step: removes the done agent_selection and selects the next done agent, if any."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        for table in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del table[agent]
        self.agents.remove(agent)
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = agent
            self.agent_selection = dead[0]
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        self._clear_rewards()

    # --- the rest of the API --------------------------------------------------------------------------------
    def render(self):
        """The state's text under render_mode="ansi"; with no render mode, warns and returns None."""
        if self.render_mode is None:
            warnings.warn("gsdk.aec: render() without a render_mode; pass render_mode='ansi'", stacklevel=2)
            return None
        return str(self._state)

    def state(self):
        """The game state's text form (State.serialize()): game.deserialize_state() reads it back."""
        return self._state.serialize()

    def close(self):
        """Releases the game state; reset() starts again."""
        self._state = None

    def __str__(self):
        return self.metadata["name"]


def aec_env(game, params=None, plugin_dir=None, seed=None, max_steps=None, render_mode=None):
    """An AECEnv of `game` (see AECEnv for the arguments), not yet reset: call reset(seed) first."""
    return AECEnv(game, params=params, plugin_dir=plugin_dir, seed=seed, max_steps=max_steps,
                  render_mode=render_mode)
