"""Tests of gsdk.VectorEnv's Gymnasium conventions: reset(seed, options) -> (obs, info), the five-tuple step, the
step limit as truncation, the same-step auto-reset with each ended episode's final observation (checked against the
per-state rules replaying the same actions), the movers' rewards, spaces that contain what reset and step return,
seeding, starting from given states, close(), and one environment stepped from two threads. On a GPU, the same
final observations and truncations as the CPU's. Without the module built every test skips."""

import threading

import pytest

np = pytest.importorskip("numpy")
gsdk = pytest.importorskip("gsdk", reason="the gsdk module is not built (GSDK_PYTHON=OFF) or not on PYTHONPATH")


def has_cuda():
    return bool(gsdk.list()["cuda"].get("devices"))


needs_cuda = pytest.mark.skipif(not has_cuda(), reason="no CUDA device")


def test_reset_and_step_return_gymnasiums_tuples_and_info():
    env = gsdk.VectorEnv("othello", 6, seed=1)
    obs, info = env.reset()
    assert obs.shape == (6, 2, 8, 8) and set(info) == {"action_mask", "current_player"}
    assert info["action_mask"].shape == (6, 65) and info["action_mask"].dtype == np.bool_
    result = env.step(env.random_actions())
    assert len(result) == 5
    obs, rewards, terminated, truncated, info = result
    assert rewards.shape == (6,) and rewards.dtype == np.float32
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_ and not truncated.any()
    assert {"action_mask", "current_player", "rewards", "final_obs", "_final_obs", "final_info",
            "_final_info"} <= set(info)
    assert env.metadata["autoreset_mode"] in ("SameStep",) or str(env.metadata["autoreset_mode"]).endswith("SAME_STEP")


def test_spaces_contain_what_reset_and_step_return():
    env = gsdk.VectorEnv("othello", 5, seed=2)
    assert env.single_action_space.n == 65 and env.single_observation_space.shape == (2, 8, 8)
    assert env.observation_space.shape == (5, 2, 8, 8) and env.action_space.shape == (5,)
    obs, info = env.reset()
    assert env.observation_space.contains(obs) and env.single_observation_space.contains(obs[0])
    for _ in range(80):
        actions = env.random_actions().astype(np.int64)
        assert env.action_space.contains(actions)
        assert env.single_action_space.contains(int(actions[0]))
        obs, *_ = env.step(actions)
        assert env.observation_space.contains(obs)
    assert not env.single_action_space.contains(65)
    sampled = env.action_space.sample(mask=tuple(info["action_mask"].astype(np.int8)))
    assert info["action_mask"][np.arange(5), sampled].all()


def trajectory(env, steps, seed=None):
    """Steps with the env's random actions and returns every array, as numpy copies."""
    obs, _ = env.reset(seed=seed)
    rows = [np.array(obs)]
    for _ in range(steps):
        obs, rewards, terminated, truncated, info = env.step(env.random_actions())
        rows += [np.array(obs), np.array(rewards), np.array(terminated), np.array(truncated)]
    return rows


def test_the_same_seed_gives_the_same_episodes_and_another_differs():
    env = gsdk.VectorEnv("othello", 16, seed=0)
    first = trajectory(env, 120, seed=3)
    again = trajectory(env, 120, seed=3)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    fresh = trajectory(gsdk.VectorEnv("othello", 16, seed=3), 120)
    for a, b in zip(first, fresh):
        np.testing.assert_array_equal(a, b)
    other = trajectory(env, 120, seed=4)
    assert any((a != b).any() for a, b in zip(first, other))


def test_the_step_limit_truncates_keeps_the_final_observation_and_restarts():
    limited = gsdk.VectorEnv("othello", 8, seed=5, max_episode_steps=10)
    free = gsdk.VectorEnv("othello", 8, seed=5)
    start, _ = limited.reset()
    free.reset()
    assert limited.max_episode_steps == 10 and free.max_episode_steps is None
    for step in range(1, 11):
        actions = free.random_actions()
        want, *_ = free.step(actions)
        obs, rewards, terminated, truncated, info = limited.step(actions)
        if step < 10:
            assert not truncated.any()
            np.testing.assert_array_equal(obs, want)
    # No Othello game ends in 10 moves: every episode is truncated, none terminated, and nothing is paid.
    assert truncated.all() and not terminated.any() and not rewards.any()
    np.testing.assert_array_equal(info["final_obs"], want)
    assert info["_final_obs"].all()
    np.testing.assert_array_equal(obs, start)
    assert (info["current_player"] == 0).all()
    # The count starts over: the next truncation is ten steps later.
    for step in range(1, 11):
        obs, rewards, terminated, truncated, info = limited.step(limited.random_actions())
        assert truncated.all() == (step == 10)
    with pytest.raises(ValueError, match="max_episode_steps"):
        gsdk.VectorEnv("othello", 2, max_episode_steps=0)


def test_final_observations_are_the_states_the_games_ended_in():
    """Each game replayed by the per-state rules: where a step ends it, final_obs is the finished state's observation
    and the reward is the mover's share of its returns."""
    n = 12
    game = gsdk.load_game("othello")
    env = gsdk.VectorEnv("othello", n, seed=9)
    obs, info = env.reset()
    states = [game.new_initial_state() for _ in range(n)]
    ended = 0
    for _ in range(400):
        actions = env.random_actions()
        movers = np.array(info["current_player"])
        obs, rewards, terminated, truncated, info = env.step(actions)
        for k in range(n):
            states[k].apply_action(int(actions[k]))
            if not terminated[k]:
                assert rewards[k] == 0
                np.testing.assert_array_equal(info["final_obs"][k], obs[k])
                continue
            assert states[k].is_terminal() and info["_final_obs"][k]
            np.testing.assert_array_equal(info["final_obs"][k], states[k].observation_tensor())
            assert rewards[k] == states[k].returns()[movers[k]]
            assert info["rewards"][k].tolist() == states[k].returns()
            states[k] = game.new_initial_state()
            ended += 1
        np.testing.assert_array_equal(info["_final_obs"], terminated | truncated)
    assert ended >= n


def test_one_player_rewards_and_final_observations():
    env = gsdk.VectorEnv("minefield", 32, seed=4, max_episode_steps=7)
    env.reset()
    paid, truncations = [], 0
    for _ in range(100):
        obs, rewards, terminated, truncated, info = env.step(env.random_actions())
        assert not (terminated & truncated).any()
        np.testing.assert_array_equal(rewards, info["rewards"][:, 0])
        paid.append(rewards[terminated])
        truncations += int(truncated.sum())
        # A truncated episode's final observation is a live position: one agent cell in plane 2.
        assert (info["final_obs"][truncated][:, 2].sum(axis=(1, 2)) == 1).all()
    paid = np.concatenate(paid)
    assert paid.size > 0 and np.isin(paid, [-1, 1]).all()  # a step limit pays nothing: it truncates
    assert truncations > 0


def test_reset_from_given_states_and_back_to_the_start_after_their_end():
    game = gsdk.load_game("othello")
    state = game.new_initial_state()
    for action in (19, 18, 17):  # d3 c3 b3
        state.apply_action(action)
    env = gsdk.VectorEnv("othello", 3, seed=1)
    obs, info = env.reset(options={"states": state})
    for k in range(3):
        np.testing.assert_array_equal(obs[k], state.observation_tensor())
        assert sorted(np.flatnonzero(info["action_mask"][k]).tolist()) == state.legal_actions()
    assert (info["current_player"] == state.current_player()).all()
    others = [game.new_initial_state(), state.clone(), game.new_initial_state()]
    obs, _ = env.reset(options={"states": others})
    np.testing.assert_array_equal(obs[1], state.observation_tensor())
    np.testing.assert_array_equal(obs[0], game.new_initial_state().observation_tensor())
    # A finished game, a state of another game and a wrong count are refused.
    finished = game.new_initial_state()
    while not finished.is_terminal():
        finished.apply_action(finished.legal_actions()[0])
    with pytest.raises(ValueError, match="environment 0 is a finished game"):
        env.reset(options={"states": finished})
    with pytest.raises(ValueError, match="minefield"):
        env.reset(options={"states": gsdk.load_game("minefield").new_initial_state()})
    with pytest.raises(ValueError, match="expected one gsdk.State or 3"):
        env.reset(options={"states": [state, state]})
    with pytest.raises(TypeError, match="gsdk.State"):
        env.reset(options={"states": [state, "d3", state]})
    with pytest.raises(ValueError, match="unknown options"):
        env.reset(options={"reset_mask": np.ones(3, bool)})


def test_close_ends_the_environment_and_keeps_returned_arrays():
    with gsdk.VectorEnv("othello", 4, seed=1) as env:
        obs, _ = env.reset()
    assert env.closed
    assert obs.shape == (4, 2, 8, 8) and obs.sum() == 16
    with pytest.raises(RuntimeError, match="closed"):
        env.step(np.zeros(4, np.uint32))
    env.close()  # twice is fine


def test_two_threads_stepping_one_environment_wait_for_each_other():
    """Minefield's four moves are always legal: 2 x 300 steps of 'right' from two threads must leave the games where
    600 steps in one thread do, whatever the interleaving."""
    shared = gsdk.VectorEnv("minefield", 2000, seed=1, threads=2)
    alone = gsdk.VectorEnv("minefield", 2000, seed=1, threads=2)
    right = np.zeros(2000, np.uint32)
    errors = []

    def run():
        try:
            for _ in range(300):
                shared.step(right)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for _ in range(600):
        alone.step(right)
    assert not errors
    np.testing.assert_array_equal(shared.states(), alone.states())


def test_final_observations_can_be_turned_off():
    env = gsdk.VectorEnv("othello", 4, seed=1, final_observation=False)
    assert env.final_observation is False
    _, _, _, _, info = env.step(env.random_actions())
    assert "final_obs" not in info and "_final_info" in info


@needs_cuda
@pytest.mark.parametrize("game", ["othello", "minefield"])
def test_cuda_truncates_and_keeps_final_observations_as_the_cpu(game):
    cpu = gsdk.VectorEnv(game, 3000, seed=13, max_episode_steps=25)
    gpu = gsdk.VectorEnv(game, 3000, seed=13, max_episode_steps=25, device="cuda")
    assert gpu.final_observation
    np.testing.assert_array_equal(gpu.reset(seed=14)[0].numpy(), cpu.reset(seed=14)[0])
    truncated_games = 0
    for _ in range(90):
        actions = cpu.random_actions()
        got = gpu.step(actions)
        want = cpu.step(actions)
        for g, w in zip(got[:4], want[:4]):
            np.testing.assert_array_equal(g.numpy(), w)
        for key in ("rewards", "action_mask", "current_player", "final_obs", "_final_obs"):
            np.testing.assert_array_equal(got[4][key].numpy(), want[4][key])
        truncated_games += int(want[3].sum())
    assert truncated_games > 0
    state = gsdk.load_game(game).new_initial_state()
    state.apply_action(state.legal_actions()[-1])
    np.testing.assert_array_equal(gpu.reset(options={"states": state})[0].numpy(),
                                  cpu.reset(options={"states": state})[0])
    np.testing.assert_array_equal(gpu.states(), cpu.states())
