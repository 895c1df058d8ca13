"""Tests of gsdk.Agent, gsdk's players on gsdk.State objects: UCT and alpha-beta beat uniform random at Othello from
Python, every action they choose is legal, the same seed gives the same game, and bad input (a bad spec, a state of
another game, a finished game, an illegal observed action) raises ValueError naming it."""

import pytest

gsdk = pytest.importorskip("gsdk", reason="the gsdk module is not built (GSDK_PYTHON=OFF) or not on PYTHONPATH")


def play(game, agents):
    """One game between agents[0] (player 0) and agents[1]; returns the actions played and player 0's return."""
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
        action = agents[state.current_player()].choose_action(state)
        assert action in state.legal_actions()
        for agent in agents:
            agent.observe_action(state, action)
        state.apply_action(action)
        actions.append(action)
    return actions, state.returns()[0]


def test_uct_and_alphabeta_beat_random_at_othello():
    game = gsdk.load_game("othello")
    wins = 0
    for seed in range(4):
        strong = gsdk.Agent(game, "uct:playouts=300", seed=seed)
        weak = gsdk.Agent(game, "random", seed=100 + seed)
        agents = (strong, weak) if seed % 2 == 0 else (weak, strong)
        _, result = play(game, agents)
        wins += (result > 0) if seed % 2 == 0 else (result < 0)
    assert wins >= 3, f"UCT with 300 playouts won {wins} of 4 games against random"
    searcher = gsdk.Agent(game, "alphabeta:depth=3", seed=0)
    _, result = play(game, (searcher, gsdk.Agent(game, "random", seed=7)))
    assert result > 0
    assert searcher.last_move()["depth"] >= 1 and "alphabeta" in searcher.describe()


def test_the_same_seed_plays_the_same_game():
    game = gsdk.load_game("othello")
    first, _ = play(game, (gsdk.Agent(game, "uct:playouts=50", seed=3), gsdk.Agent(game, "random", seed=4)))
    second, _ = play(game, (gsdk.Agent(game, "uct:playouts=50", seed=3), gsdk.Agent(game, "random", seed=4)))
    other, _ = play(game, (gsdk.Agent(game, "uct:playouts=50", seed=3), gsdk.Agent(game, "random", seed=5)))
    assert first == second and first != other


def test_bad_input_is_refused():
    game = gsdk.load_game("othello")
    with pytest.raises(ValueError, match="bogus"):
        gsdk.Agent(game, "bogus:playouts=5")
    with pytest.raises(ValueError, match="playouts"):
        gsdk.Agent(game, "uct:playouts=0")
    agent = gsdk.Agent(game, "random", seed=1)
    with pytest.raises(ValueError, match="another gsdk.Game"):
        agent.choose_action(gsdk.load_game("othello").new_initial_state())
    with pytest.raises(ValueError, match=r"observe_action\(0\): not a legal action"):
        agent.observe_action(game.new_initial_state(), 0)
    finished = game.new_initial_state()
    while not finished.is_terminal():
        finished.apply_action(finished.legal_actions()[0])
    with pytest.raises(ValueError, match="no player is to move"):
        agent.choose_action(finished)
