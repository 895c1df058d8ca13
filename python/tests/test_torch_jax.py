"""PyTorch and JAX on a VectorEnv's GPU arrays, without copies: observations, rewards and masks become torch CUDA
tensors and JAX device arrays through DLPack at the environment's own addresses, and actions chosen by torch (or by
JAX) on the GPU step the games in place, giving the trajectory the CPU gives for the same actions. Skipped without
a CUDA device, or without torch (Debian's python3-torch is a CPU build) or jax."""

import pytest

np = pytest.importorskip("numpy")
gsdk = pytest.importorskip("gsdk", reason="the gsdk module is not built (GSDK_PYTHON=OFF) or not on PYTHONPATH")


def has_cuda():
    return bool(gsdk.list()["cuda"].get("devices"))


needs_cuda = pytest.mark.skipif(not has_cuda(), reason="no CUDA device")


def cpu_trajectory(actions_per_step, n, seed):
    env = gsdk.VectorEnv("othello", n, seed=seed)
    env.reset()
    rows = []
    for actions in actions_per_step:
        obs, rewards, terminated, _, _ = env.step(np.asarray(actions, dtype=np.uint32))
        rows.append((np.array(obs), np.array(rewards), np.array(terminated)))
    return rows


@needs_cuda
def test_torch_reads_and_writes_the_gpu_arrays_in_place():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this torch has no CUDA")
    n = 4096
    env = gsdk.VectorEnv("othello", n, seed=5, device="cuda")
    obs, _ = env.reset()
    tensor = torch.from_dlpack(obs)
    assert tensor.is_cuda and tuple(tensor.shape) == (n, 2, 8, 8) and tensor.dtype == torch.uint8
    again = torch.from_dlpack(obs)
    assert again.data_ptr() == tensor.data_ptr()  # the environment's memory, not a copy
    assert int(tensor.sum()) == 4 * n  # two discs a side in every game
    generator = torch.Generator(device="cuda").manual_seed(3)
    chosen = []
    for _ in range(80):
        mask = torch.from_dlpack(env.legal_actions_mask())
        assert mask.is_cuda and mask.dtype == torch.bool
        scores = torch.rand(mask.shape, device="cuda", generator=generator) * mask
        actions = scores.argmax(dim=1).to(torch.int32)  # a legal action per game, chosen on the GPU
        obs, rewards, terminated, truncated, info = env.step(actions)
        chosen.append(actions.cpu().numpy())
        rewards_tensor = torch.from_dlpack(rewards)
        assert rewards_tensor.is_cuda and tuple(rewards_tensor.shape) == (n,)
        assert tuple(torch.from_dlpack(info["rewards"]).shape) == (n, 2)
        assert not torch.from_dlpack(truncated).any()
    last = cpu_trajectory(chosen, n, seed=5)[-1]
    assert (torch.from_dlpack(obs).cpu().numpy() == last[0]).all()
    assert (torch.from_dlpack(rewards).cpu().numpy() == last[1]).all()
    assert (torch.from_dlpack(terminated).cpu().numpy() == last[2]).all()


@needs_cuda
def test_jax_reads_the_gpu_arrays_and_its_actions_step_the_games():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("this jax has no GPU")
    n = 1024
    env = gsdk.VectorEnv("othello", n, seed=8, device="cuda")
    obs = jnp.from_dlpack(env.reset()[0])
    assert obs.shape == (n, 2, 8, 8) and int(obs.sum()) == 4 * n
    assert list(obs.devices())[0].platform == "gpu"
    key = jax.random.PRNGKey(0)
    chosen = []
    for _ in range(40):
        mask = jnp.from_dlpack(env.legal_actions_mask())
        key, sub = jax.random.split(key)
        actions = jnp.argmax(jax.random.uniform(sub, mask.shape) * mask, axis=1).astype(jnp.int32)
        obs, rewards, terminated, _, _ = env.step(actions)
        chosen.append(np.asarray(actions))
    last = cpu_trajectory(chosen, n, seed=8)[-1]
    assert (np.asarray(jnp.from_dlpack(obs)) == last[0]).all()
