"""gsdk.Agent: gsdk's own players (uniform random, flat Monte Carlo, UCT, alpha-beta) choosing actions in
gsdk.State objects, so a search written in Python can play against them.

    game = gsdk.load_game("othello")
    uct = gsdk.Agent(game, "uct:playouts=2000", seed=1)
    state = game.new_initial_state()
    action = uct.choose_action(state)
    uct.observe_action(state, action)    # every action played, the agent's own included, keeps its tree
    state.apply_action(action)

The spec is the CLI's agent text (`gsdk match --help`, docs/user_guide.md "Agents"): random, flatmc, uct, alphabeta
with their options. Two-player games only, as in `gsdk match`.
"""

from . import _gsdk


class Agent(_gsdk.Agent):
    """Agent(game, spec, seed=0): choose_action(state), observe_action(before, action), new_game(seed), describe(),
    last_move(). Under a playout or depth budget its actions are a function of (game, spec, seed, the actions
    observed); a bad spec raises ValueError naming it."""

    def __init__(self, game, spec, seed=0):
        super().__init__(game, spec, seed)

    def __repr__(self):
        return f"gsdk.Agent({self.describe()!r})"
