"""Tests of gsdk.VectorEnv: shapes, auto-reset and rewards, determinism over threads, refusals, and on a GPU the same
trajectories as on the CPU with the arrays handed out through DLPack. Without the module built every test skips."""

import ctypes

import pytest

np = pytest.importorskip("numpy")
gsdk = pytest.importorskip("gsdk", reason="the gsdk module is not built (GSDK_PYTHON=OFF) or not on PYTHONPATH")


def has_cuda():
    return bool(gsdk.list()["cuda"].get("devices"))


needs_cuda = pytest.mark.skipif(not has_cuda(), reason="no CUDA device")


def play(env, steps, rng=None):
    """Steps env `steps` times (random_actions(), or numpy's choice among the legal actions with rng) and returns
    every step's arrays as numpy copies."""
    trajectory = []
    for _ in range(steps):
        if rng is None:
            actions = env.random_actions()
        else:
            mask = np.asarray(env.legal_actions_mask())
            actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        obs, _, terminated, _, info = env.step(actions)
        trajectory.append((np.array(obs), np.array(info["rewards"]), np.array(terminated),
                           np.array(env.current_player())))
    return trajectory


def test_othello_starts_from_the_initial_position():
    env = gsdk.VectorEnv("othello", 8, seed=1)
    obs, _ = env.reset()
    assert env.num_envs == 8 and env.num_players == 2 and env.num_actions == 65
    assert obs.shape == (8, 2, 8, 8) and obs.dtype == np.uint8 and env.observation_shape == (2, 8, 8)
    assert (obs.sum(axis=(2, 3)) == 2).all()  # two discs of each side
    mask = env.legal_actions_mask()
    assert mask.shape == (8, 65) and mask.dtype == np.bool_
    assert [sorted(np.flatnonzero(row)) for row in mask] == [[19, 26, 37, 44]] * 8  # d3 c4 f5 e6
    assert (env.current_player() == 0).all()


def test_a_step_moves_and_hands_the_turn_over():
    env = gsdk.VectorEnv("othello", 2, seed=1)
    env.reset()
    obs, rewards, terminated, _, info = env.step(np.array([19, 44]))
    assert rewards.shape == (2,) and info["rewards"].shape == (2, 2) and rewards.dtype == np.float32
    assert not info["rewards"].any()
    assert terminated.dtype == np.bool_ and not terminated.any()
    assert (env.current_player() == 1).all()
    # From white's view now: 1 own disc, 4 black discs.
    assert obs[:, 0].sum(axis=(1, 2)).tolist() == [1, 1] and obs[:, 1].sum(axis=(1, 2)).tolist() == [4, 4]


def test_games_end_pay_and_restart():
    env = gsdk.VectorEnv("othello", 64, seed=7)
    start, _ = env.reset()
    ended = 0
    for obs, rewards, terminated, players in play(env, 200, np.random.default_rng(3)):
        assert not rewards[~terminated].any()  # nothing is paid before the end
        finished = rewards[terminated]
        assert np.isin(finished, [-1, 0, 1]).all() and (finished.sum(axis=1) == 0).all()
        assert (obs[terminated] == start[0]).all() and (players[terminated] == 0).all()  # auto-reset
        ended += int(terminated.sum())
    assert ended >= 64  # an Othello game lasts at most 60 moves and a few passes


def test_same_seed_same_trajectory_on_one_or_two_threads():
    one = play(gsdk.VectorEnv("othello", 33, seed=5, threads=1), 150)
    two = play(gsdk.VectorEnv("othello", 33, seed=5, threads=2), 150)
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    other = play(gsdk.VectorEnv("othello", 33, seed=6, threads=2), 150)
    assert any((a[0] != b[0]).any() for a, b in zip(one, other))


def test_random_actions_are_legal():
    env = gsdk.VectorEnv("othello", 100, seed=2)
    for _ in range(50):
        actions = env.random_actions()
        assert actions.shape == (100,)
        assert env.legal_actions_mask()[np.arange(100), actions].all()
        env.step(actions)


def test_an_illegal_action_is_refused_and_no_game_moves():
    env = gsdk.VectorEnv("othello", 4, seed=1)
    env.reset()
    before = env.states()
    with pytest.raises(ValueError, match=r"action 0 of environment 2\b.*legal codes: \[19, 26, 37, 44\]"):
        env.step(np.array([19, 19, 0, 19]))
    np.testing.assert_array_equal(env.states(), before)
    with pytest.raises(ValueError, match="negative"):
        env.step(np.array([19, -1, 19, 19]))
    with pytest.raises(ValueError, match=r"environment 0\b.*\b65\b"):
        env.step(np.array([65, 19, 19, 19]))
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        env.step(np.array([19, 19]))
    with pytest.raises(ValueError, match="integer"):
        env.step(np.array([19.0, 19.0, 19.0, 19.0]))
    np.testing.assert_array_equal(env.states(), before)


def test_one_player_game_pays_its_score():
    env = gsdk.VectorEnv("minefield", 16, seed=4)
    env.reset()
    assert env.num_players == 1
    paid = [rewards[terminated] for _, rewards, terminated, _ in play(env, 300)]
    paid = np.concatenate(paid)
    assert paid.size > 0 and np.isin(paid, [-1, 0, 1]).all()


def test_refusals_name_the_problem():
    with pytest.raises(gsdk.PluginError, match="nosuch"):
        gsdk.VectorEnv("nosuch", 4, seed=1)
    with pytest.raises(gsdk.ConfigError, match="params"):
        gsdk.VectorEnv("othello", 4, seed=1, params={"nosuch": 1})
    with pytest.raises(ValueError, match="move codes"):
        gsdk.VectorEnv("graveler", 4, seed=1)
    with pytest.raises(ValueError, match="cpu"):
        gsdk.VectorEnv("othello", 4, seed=1, device="gpu")


def test_a_size_past_the_free_memory_is_refused_before_allocating():
    # 2^32 - 1 Othello games take hundreds of GiB: refused at once with the numbers, never a std::bad_alloc after
    # gigabytes were allocated.
    with pytest.raises(gsdk.MemoryRefusal, match=r"4294967295 games of 'othello' needs at least .* [GTP]iB of host memory "
                                                 r"\(4294967295 games x \d+ bytes\); .* is free"):
        gsdk.VectorEnv("othello", 2**32 - 1, seed=1)
    assert issubclass(gsdk.MemoryRefusal, MemoryError)


def test_host_arrays_are_numpy_and_outlive_the_next_step():
    env = gsdk.VectorEnv("othello", 3, seed=1)
    first, _ = env.reset()
    kept = first.copy()
    env.step(env.random_actions())
    np.testing.assert_array_equal(first, kept)  # a step writes new arrays
    assert np.from_dlpack(first).shape == (3, 2, 8, 8)


@needs_cuda
@pytest.mark.parametrize("game", ["othello", "minefield"])
def test_cuda_plays_the_cpu_trajectory(game):
    cpu = gsdk.VectorEnv(game, 1000, seed=11)
    gpu = gsdk.VectorEnv(game, 1000, seed=11, device="cuda")
    np.testing.assert_array_equal(np.asarray(gpu.reset()[0]), cpu.reset()[0])
    for _ in range(120):
        actions = gpu.random_actions()
        assert isinstance(actions, gsdk.DeviceArray)
        np.testing.assert_array_equal(actions.numpy(), cpu.random_actions())
        got = gpu.step(actions)
        want = cpu.step(actions.numpy())
        for g, w in zip(got[:4], want[:4]):
            np.testing.assert_array_equal(g.numpy(), w)
        for key in ("rewards", "action_mask", "current_player", "final_obs", "_final_obs"):
            np.testing.assert_array_equal(np.asarray(got[4][key]), want[4][key])
        np.testing.assert_array_equal(np.asarray(gpu.legal_actions_mask()), cpu.legal_actions_mask())
    np.testing.assert_array_equal(gpu.states(), cpu.states())


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int), ("device_id", ctypes.c_int),
                ("ndim", ctypes.c_int), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.c_void_p), ("byte_offset", ctypes.c_uint64)]


@needs_cuda
def test_device_arrays_go_out_through_dlpack():
    env = gsdk.VectorEnv("othello", 5, seed=1, device="cuda")
    obs, _ = env.reset()
    assert obs.__dlpack_device__() == (2, 0) and obs.shape == (5, 2, 8, 8) and obs.dtype == np.uint8
    capsule = obs.__dlpack__()
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    tensor = DLTensor.from_address(get_pointer(capsule, b"dltensor"))
    assert tensor.device_type == 2 and tensor.ndim == 4 and tensor.data
    assert [tensor.shape[i] for i in range(4)] == [5, 2, 8, 8] and (tensor.code, tensor.bits) == (1, 8)
    mask = env.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.numpy().sum() == 20
    del capsule  # an unconsumed capsule frees its tensor


@needs_cuda
def test_cuda_refuses_host_work_it_cannot_take():
    env = gsdk.VectorEnv("othello", 4, seed=1, device="cuda")
    before = env.states()
    with pytest.raises(ValueError, match=r"environment 1\b"):
        env.step(np.array([19, 0, 19, 19]))  # host actions are copied to the device and checked there
    np.testing.assert_array_equal(env.states(), before)
    with pytest.raises(ValueError, match="CUDA device 99 does not exist"):
        gsdk.VectorEnv("othello", 4, seed=1, device="cuda:99")
