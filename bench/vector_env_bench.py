#!/usr/bin/env python3
"""vector_env_bench.py - env-steps per second of gsdk.VectorEnv, as a Python program drives it.

Each step: choose one legal action per game, then env.step(actions) (which also writes the observations, rewards,
terminal flags, players and the next legal masks). The actions come from numpy (--actions numpy: a uniform pick
among each game's legal actions, as an agent's sampling would cost) or from the environment's own random_actions()
(--actions env: on a GPU the actions never leave the device). --pipelines 2 runs two environments of n/2 games each
from two Python threads, so that numpy's choice for one overlaps the other's step (numpy and the steps release the
GIL). Prints one line per repeat and the median; docs/perf/python.md has the numbers and the floor.

  PYTHONPATH=build/python python3 bench/vector_env_bench.py --game othello --n 65536 --steps 200
  PYTHONPATH=build/python python3 bench/vector_env_bench.py --game othello --n 4194304 --device cuda --actions env
"""

import argparse
import statistics
import threading
import time

import numpy as np

import gsdk


def numpy_chooser(n, num_actions, seed):
    """A uniformly random legal action per row of a mask: the legal (game, action) pairs in row order, each game's
    count of them, and one uniform pick among each game's. About 90 ns a game on one core, 1.5x faster than a random
    key per action and an argmax per row."""
    rng = np.random.default_rng(seed)
    row_starts = np.arange(n + 1, dtype=np.int64) * num_actions

    def choose(mask):
        legal = np.flatnonzero(mask)
        bounds = np.searchsorted(legal, row_starts)
        counts = np.diff(bounds)
        return legal[bounds[:-1] + (rng.random(n) * counts).astype(np.int64)] - row_starts[:-1]

    return choose


def run_pipeline(env, steps, actions, seed, barrier=None):
    choose = numpy_chooser(env.num_envs, env.num_actions, seed) if actions == "numpy" else None
    if barrier:
        barrier.wait()
    for _ in range(steps):
        chosen = choose(env.legal_actions_mask()) if choose else env.random_actions()
        env.step(chosen)


def measure(args):
    per_pipeline = args.n // args.pipelines
    envs = [gsdk.VectorEnv(args.game, per_pipeline, seed=args.seed + i, device=args.device, threads=args.threads,
                           final_observation=False if args.no_final_observation else None)
            for i in range(args.pipelines)]
    for env in envs:
        run_pipeline(env, 3, args.actions, args.seed)  # warm up: first allocations, thread start
    barrier = threading.Barrier(args.pipelines + 1)
    threads = [threading.Thread(target=run_pipeline, args=(env, args.steps, args.actions, args.seed + i, barrier))
               for i, env in enumerate(envs)]
    for t in threads:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    return per_pipeline * args.pipelines * args.steps / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="othello")
    parser.add_argument("--n", type=int, default=65536, help="games in all (split over the pipelines)")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads per environment (default: all)")
    parser.add_argument("--actions", choices=["numpy", "env"], default="numpy")
    parser.add_argument("--pipelines", type=int, default=1)
    parser.add_argument("--no-final-observation", action="store_true",
                        help="skip the final observations (the default keeps them where the game allows)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rates = []
    for repeat in range(args.repeats):
        rates.append(measure(args))
        print(f"repeat {repeat}: {rates[-1]:.3e} env-steps/s", flush=True)
    print(f"{args.game} n={args.n} device={args.device} actions={args.actions} pipelines={args.pipelines} "
          f"threads={args.threads or 'all'}: median {statistics.median(rates):.3e} env-steps/s "
          f"(min {min(rates):.3e}, max {max(rates):.3e})")


if __name__ == "__main__":
    main()
