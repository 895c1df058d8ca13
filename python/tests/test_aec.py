"""Tests of gsdk.aec, the PettingZoo-style AEC environment: random Othello games through the AEC loop (turn order,
masks, zero-sum final rewards by the score's sign, reproducible episodes), refused illegal actions, max_steps
truncation, the dead-step protocol, spaces that contain the observations, chance nodes resolved inside the env
(test_coin_tree), and a game without move codes refused."""

import os

import pytest

np = pytest.importorskip("numpy")
gsdk = pytest.importorskip("gsdk", reason="the gsdk module is not built (GSDK_PYTHON=OFF) or not on PYTHONPATH")
aec = pytest.importorskip("gsdk.aec")

TEST_PLUGINS = os.environ.get("GSDK_TEST_PLUGIN_DIR")
needs_test_plugins = pytest.mark.skipif(not TEST_PLUGINS, reason="GSDK_TEST_PLUGIN_DIR names no test plugins")


def play(env, seed, shadow_game=None):
    """One episode through the AEC loop with actions drawn from the masks by a seeded generator.

    Returns (agents in turn, actions, final cumulative reward by agent). With shadow_game, a gsdk.State replays
    the actions beside the env and every turn is checked against it.
    """
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    shadow = shadow_game.new_initial_state() if shadow_game is not None else None
    turns, actions, final = [], [], {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            action = None
        else:
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (env.game.num_distinct_actions,)
            if shadow is not None:
                assert agent == f"player_{shadow.current_player()}"
                assert np.flatnonzero(mask).tolist() == shadow.legal_actions()
                assert (obs["observation"] == shadow.observation_tensor()).all()
            assert reward == 0  # rewards come only at the end
            action = int(rng.choice(np.flatnonzero(mask)))
            turns.append(agent)
            actions.append(action)
            if shadow is not None:
                shadow.apply_action(action)
        env.step(action)
    return turns, actions, final


def test_random_othello_games_follow_the_rules_and_score():
    game = gsdk.load_game("othello")
    env = aec.aec_env("othello")
    assert env.possible_agents == ["player_0", "player_1"] and env.max_num_agents == 2
    assert env.metadata["is_parallelizable"] is False and env.metadata["render_modes"] == ["ansi"]
    passes = 0
    for seed in range(8):
        turns, actions, final = play(env, seed, shadow_game=game)
        assert env.agents == [] and env.num_agents == 0  # every agent took its dead step
        passes += actions.count(64)
        # A pass is a move in Othello, so the turns alternate strictly, passes included.
        assert all(a != b for a, b in zip(turns, turns[1:])) and turns[0] == "player_0"
        state = game.new_initial_state()
        for action in actions:
            state.apply_action(action)
        assert state.is_terminal()
        assert sorted(final) == ["player_0", "player_1"]
        assert final["player_0"] + final["player_1"] == 0
        assert final["player_0"] == np.sign(state.score()) == state.returns()[0]
    assert passes > 0  # seeds 5 and 6 pass: action 64 came through the mask, checked against legal_actions()


def test_the_same_seed_replays_the_same_episode():
    env = aec.aec_env("othello")
    first = play(env, 11)
    assert play(env, 11) == first
    assert play(env, 12) != first


def test_an_illegal_action_is_refused_without_change():
    env = aec.aec_env("othello", render_mode="ansi")
    env.reset(seed=0)
    before = (env.state(), env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards))
    for bad in (0, 64, 65, -1, None, 19.5, "19", True):
        with pytest.raises(ValueError, match=r"not legal for player_0; legal actions: \[19, 26, 37, 44\]"):
            env.step(bad)
        assert (env.state(), env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards)) == before
    env.step(np.int64(19))  # numpy integers are actions too
    assert env.agent_selection == "player_1" and env.state() != before[0]
    assert env.render() == str(env.game.deserialize_state(env.state()))


def test_max_steps_truncates_every_agent():
    env = aec.aec_env("othello", max_steps=5)
    turns, actions, final = play(env, 3)
    assert len(actions) == 5 and final == {"player_0": 0.0, "player_1": 0.0}
    env.reset(seed=3)
    for _ in range(4):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
        assert not any(env.truncations.values())
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.last()[0]["action_mask"].sum() == 0  # a truncated agent has no legal action


def test_dead_steps_take_none_only():
    env = aec.aec_env("othello", max_steps=1)
    env.reset(seed=0)
    env.step(19)
    done = env.agent_selection
    assert env.truncations[done]
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(26)
    assert env.agents == ["player_0", "player_1"]  # the refused step removed no one
    env.step(None)
    assert done not in env.agents and done not in env.rewards and env.num_agents == 1
    env.step(None)
    assert env.agents == [] and list(env.agent_iter()) == []
    with pytest.raises(RuntimeError):
        env.step(None)


def test_spaces_contain_what_observe_returns():
    env = aec.aec_env("othello", seed=4)
    env.reset()
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        obs = env.observe(agent)
        assert space.contains(obs) and space["observation"].shape == (2, 8, 8)
        assert (obs["observation"] == env.observe("player_1")["observation"]).all()  # one view for every agent
        assert env.action_space(agent).n == 65
    assert env.observe("player_1")["action_mask"].sum() == 0  # not player_1's turn
    mask = env.observe("player_0")["action_mask"]
    assert all(mask[env.action_space("player_0").sample(mask)] == 1 for _ in range(20))
    assert not env.observation_space("player_0").contains({"observation": np.zeros((8, 8), np.uint8),
                                                            "action_mask": mask})


@needs_test_plugins
def test_chance_nodes_are_resolved_inside_the_env():
    game = gsdk.load_game("test_coin_tree", plugin_dir=TEST_PLUGINS)
    env = aec.aec_env("test_coin_tree", plugin_dir=TEST_PLUGINS)
    episodes = set()
    for seed in range(12):
        env.reset(seed=seed)
        states = []
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            assert agent in env.possible_agents
            state = game.deserialize_state(env.state())
            assert not state.is_chance_node()
            if not (term or trunc):
                assert agent == f"player_{state.current_player()}"
            states.append(env.state())
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        env.reset(seed=seed)
        replay = []
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            replay.append(env.state())
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        assert replay == states
        episodes.add(tuple(states))
    assert len(episodes) > 1  # the coins differ between seeds: the draws are not fixed


def test_a_game_without_move_codes_is_refused():
    names = [plugin["name"] for plugin in gsdk.list()["plugins"]]
    without = [name for name in names if gsdk.load_game(name).num_distinct_actions is None]
    if not without:
        pytest.skip("every loaded game has move codes")
    with pytest.raises(ValueError, match=f"'{without[0]}' has no move codes"):
        aec.aec_env(without[0])
