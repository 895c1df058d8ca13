"""Tests of gsdk.load_game, the per-state API: perft written in Python over it equals the CLI's counts (chess and
Othello), random games end with zero-sum returns, actions are the VectorEnv's (the same trajectory gives the same
observations), clones are independent, text round-trips, and bad input (an illegal action, an unknown game, a bad
parameter, unreadable text) raises a located error without changing the state."""

import os
import random

import pytest

np = pytest.importorskip("numpy")
gsdk = pytest.importorskip("gsdk", reason="the gsdk module is not built (GSDK_PYTHON=OFF) or not on PYTHONPATH")


def perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 1  # Othello's standard convention: a finished game is a leaf at any remaining depth
    leaves = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        leaves += perft(child, depth - 1)
    return leaves


@pytest.mark.parametrize("name,depth,expected", [("othello", 5, 1396), ("chess_perft", 3, 8902)])
def test_perft_in_python_equals_the_engines(name, depth, expected):
    game = gsdk.load_game(name)
    assert perft(game.new_initial_state(), depth) == expected == gsdk.perft(name, "start", depth, device="cpu")


def test_random_othello_games_end_with_zero_sum_returns():
    game = gsdk.load_game("othello")
    assert game.num_players == 2 and game.num_distinct_actions == 65
    rng = random.Random(5)
    for _ in range(20):
        state = game.new_initial_state()
        plies = 0
        while not state.is_terminal():
            assert state.current_player() in (0, 1)
            assert state.returns() == [0.0, 0.0]
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        assert state.current_player() == gsdk.PLAYER_TERMINAL and state.legal_actions() == []
        returns = state.returns()
        assert sum(returns) == 0 and returns[0] in (-1.0, 0.0, 1.0)
        assert np.sign(state.score()) == returns[0]
        assert 9 <= plies <= 70


def test_actions_and_observations_are_the_vector_envs():
    game = gsdk.load_game("othello")
    env = gsdk.VectorEnv("othello", 1, seed=3)
    obs = np.array(env.reset()[0])
    state = game.new_initial_state()
    for _ in range(30):
        assert (state.observation_tensor() == obs[0]).all()
        mask = np.array(env.legal_actions_mask())[0]
        assert sorted(np.flatnonzero(mask).tolist()) == state.legal_actions()
        action = int(np.array(env.random_actions())[0])
        state.apply_action(action)
        obs, _, terminated, _, info = env.step(np.array([action], dtype=np.uint32))
        if terminated[0]:
            assert info["rewards"][0].tolist() == state.returns()
            break


def test_clones_are_independent_and_text_round_trips():
    game = gsdk.load_game("chess_perft")
    state = game.new_initial_state()
    copy = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert copy == game.new_initial_state() and copy != state
    back = game.deserialize_state(state.serialize())
    assert back == state and hash(back) == hash(state) and str(back) == str(state)
    assert state.state_bytes() == back.state_bytes()
    assert game.deserialize_state("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_actions()


def test_bad_input_raises_located_errors_and_leaves_the_state():
    game = gsdk.load_game("othello")
    state = game.new_initial_state()
    before = state.clone()
    with pytest.raises(ValueError, match=r"apply_action\(0\): not a legal action here; legal: \["):
        state.apply_action(0)
    assert state == before
    with pytest.raises(ValueError):
        game.deserialize_state("not a board")
    with pytest.raises(gsdk.PluginError, match="no_such_game"):
        gsdk.load_game("no_such_game")
    with pytest.raises(gsdk.ConfigError, match="perft_convention"):
        gsdk.load_game("othello", params={"perft_convention": "sideways"})
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()


def test_a_plugin_dir_is_searched_first(tmp_path):
    # An empty folder changes nothing; a folder that does not exist is the CLI's error, not a crash.
    assert gsdk.load_game("othello", plugin_dir=tmp_path).name == "othello"
    assert gsdk.VectorEnv("othello", 2, seed=1, plugin_dir=[tmp_path]).num_envs == 2


TEST_PLUGINS = os.environ.get("GSDK_TEST_PLUGIN_DIR")
needs_test_plugins = pytest.mark.skipif(not TEST_PLUGINS, reason="GSDK_TEST_PLUGIN_DIR names no test plugins")


@needs_test_plugins
def test_chance_nodes_list_their_outcomes_from_a_plugin_dir():
    with pytest.raises(gsdk.PluginError):
        gsdk.load_game("test_coin_tree")  # only in the test plugins' folder
    game = gsdk.load_game("test_coin_tree", plugin_dir=TEST_PLUGINS)
    state = game.new_initial_state()
    chance_seen = 0
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert state.current_player() == gsdk.PLAYER_CHANCE
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12 and all(p > 0 for _, p in outcomes)
            assert [a for a, _ in outcomes] == state.legal_actions()
            chance_seen += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert chance_seen >= 1
