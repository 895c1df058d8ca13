#!/usr/bin/env python3
"""pgx_side_by_side.py - Othello env-steps per second of gsdk.VectorEnv on a GPU beside Pgx (the JAX game library)
on the same GPU, in one process, random legal actions, as a learner's Python loop drives each.

gsdk: VectorEnv("othello", n, device="cuda"); each step torch picks a uniformly random legal action per game on the
GPU from the mask (read in place through DLPack: a uniform score per legal action, the highest wins) and env.step()
takes the torch tensor in place. The pick runs eagerly (three kernels) and, where torch.compile works, fused into
one kernel as XLA fuses Pgx's; measured with and without final observations, and with the env's own
random_actions().
Pgx: pgx.make("othello") with jax.vmap'd init/step and pgx.experimental.auto_reset (Pgx's own wrapper, the
auto-reset a learner needs), actions from pgx.experimental.act_randomly; timed two ways: one jitted call per step from
Python (the loop a learner writes) and a whole rollout fused into one jax.lax.scan (Pgx's best case).

Pgx is not in the registries gsdk builds from and never enters the repository: put its source on PYTHONPATH for the
measurement only (docs/perf/python.md says how it was done). Prints one JSON document; docs/perf/python.md has the
table.

  PYTHONPATH=<pgx source>:<gsdk package> python3 bench/pgx_side_by_side.py --sizes 4096 65536 1048576
"""

import argparse
import json
import time


def best_rate(run, n, steps, repeats):
    """The best of `repeats` timings of run(steps) (which must block until done) as env-steps per second."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        run(steps)
        rates.append(n * steps / (time.perf_counter() - start))
    return max(rates)


def eager_pick(mask):
    """A uniformly random legal action per row of a bool mask (ties have probability 0)."""
    import torch

    scores = torch.where(mask, torch.rand(mask.shape, device=mask.device), -1.0)
    return scores.argmax(dim=1).to(torch.int32)


def compiled_pick():
    """eager_pick fused by torch.compile, or None where this torch cannot compile it (no Triton, ...)."""
    import torch

    try:
        pick = torch.compile(eager_pick, fullgraph=True)
        pick(torch.ones((8, 65), dtype=torch.bool, device="cuda"))
        return pick
    except Exception as error:  # noqa: BLE001 - reported, the eager pick stands
        print(f"torch.compile unavailable: {type(error).__name__}: {error}"[:300], flush=True)
        return None


def gsdk_rates(n, steps, repeats, fused_pick):
    import gsdk
    import torch

    torch.manual_seed(1)
    rates = {}
    picks = [("torch_actions", eager_pick)] + ([("torch_compiled_actions", fused_pick)] if fused_pick else [])
    for name, pick in picks:
        for suffix, final in (("", None), ("_no_final_obs", False)):
            env = gsdk.VectorEnv("othello", n, seed=1, device="cuda", final_observation=final)
            _, info = env.reset()
            state = {"info": info}

            def run(count):
                for _ in range(count):
                    actions = pick(torch.from_dlpack(state["info"]["action_mask"]))
                    _, _, _, _, state["info"] = env.step(actions)
                torch.cuda.synchronize()

            run(5)  # warm up
            rates[name + suffix] = best_rate(run, n, steps, repeats)
            env.close()
    env = gsdk.VectorEnv("othello", n, seed=1, device="cuda", final_observation=False)

    def run_env_actions(count):
        for _ in range(count):
            env.step(env.random_actions())

    run_env_actions(5)
    rates["env_random_actions_no_final_obs"] = best_rate(run_env_actions, n, steps, repeats)
    return rates


def pgx_rates(n, steps, repeats):
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import act_randomly, auto_reset

    env = pgx.make("othello")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    act = jax.jit(act_randomly)
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, n))
    holder = {"state": state, "key": key}

    def run_python_loop(count):
        state, key = holder["state"], holder["key"]
        for _ in range(count):
            key, k_act, k_step = jax.random.split(key, 3)
            action = act(k_act, state.legal_action_mask)
            state = step(state, action, jax.random.split(k_step, n))
        state.observation.block_until_ready()
        holder["state"], holder["key"] = state, key

    @jax.jit
    def rollout(state, key, count_steps):
        def body(carry, _):
            state, key = carry
            key, k_act, k_step = jax.random.split(key, 3)
            action = act_randomly(k_act, state.legal_action_mask)
            return (jax.vmap(auto_reset(env.step, env.init))(state, action, jax.random.split(k_step, n)), key), None

        (state, key), _ = jax.lax.scan(body, (state, key), None, length=count_steps.shape[0])
        return state, key

    run_python_loop(3)  # compiles
    rates = {"python_loop": best_rate(run_python_loop, n, steps, repeats)}
    marker = jnp.zeros(steps)
    holder["state"], holder["key"] = rollout(holder["state"], holder["key"], marker)  # compiles
    holder["state"].observation.block_until_ready()

    def run_scan(count):
        holder["state"], holder["key"] = rollout(holder["state"], holder["key"], marker)
        holder["state"].observation.block_until_ready()

    rates["scan_fused"] = best_rate(run_scan, n, steps, repeats)
    return rates


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 65536, 1048576])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-pgx", action="store_true")
    args = parser.parse_args()
    rows = []
    fused_pick = compiled_pick()
    for n in args.sizes:
        row = {"environments": n, "gsdk": gsdk_rates(n, args.steps, args.repeats, fused_pick)}
        if not args.skip_pgx:
            row["pgx"] = pgx_rates(n, args.steps, args.repeats)
        rows.append(row)
        print(json.dumps(row), flush=True)
    import jax
    import torch
    print(json.dumps({"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "jax": jax.__version__,
                      "steps": args.steps, "repeats": args.repeats}))


if __name__ == "__main__":
    main()
