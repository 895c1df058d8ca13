"""first_hour.py - a new user's first hour with gsdk from Python, as notebook cells (# %%): random agents on a
VectorEnv, a perft, and an experiment sweep plotted with matplotlib. Runs as a script too (ctest runs it):

  PYTHONPATH=build/python MPLBACKEND=Agg python3 python/examples/first_hour.py [picture.png]
"""

# %% Random agents on n Othello games at once: numpy picks a uniformly random legal action in every game.
import pathlib
import sys

import numpy as np

import gsdk

env = gsdk.VectorEnv("othello", 1024, seed=1)
obs, info = env.reset()
print(env, "observations", obs.shape, obs.dtype)

rng = np.random.default_rng(0)
finished = np.zeros(3, dtype=np.int64)  # black wins, white wins, draws
while finished.sum() < 2000:
    mask = info["action_mask"]
    actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
    obs, _, terminated, truncated, info = env.step(actions)
    paid = info["rewards"][terminated]  # every player's reward (n, 2); the step's own is the mover's
    finished += [(paid[:, 0] > 0).sum(), (paid[:, 1] > 0).sum(), (paid[:, 0] == 0).sum()]
print(f"random against random, {finished.sum()} games: black won {finished[0]}, white {finished[1]}, "
      f"drawn {finished[2]}")

# %% A perft: the leaves of Othello's move tree 6 plies deep (published: 8200).
leaves = gsdk.perft("othello", "start", 6)
print("othello perft 6:", leaves)
assert leaves == 8200

# %% An experiment sweep: random snakes in the d-cube, the longest and the mean length for d = 5 .. 9.
dimensions = [5, 6, 7, 8, 9]
best, mean = [], []
for d in dimensions:
    results = gsdk.run(pathlib.Path(__file__).resolve().parents[2] / "configs" / "snake_playouts.toml",
                       set={"params.dimension": d, "playouts.count": 20000}, threads=2)
    best.append(results["result"]["best"]["score"])
    mean.append(results["result"]["mean"])
    print(f"d={d}: longest {best[-1]}, mean {mean[-1]:.1f} edges")
assert best == sorted(best)  # a longer snake fits in a bigger cube

# %% The sweep as a picture (matplotlib is optional: without it the tour ends here).
try:
    import matplotlib
except ImportError:
    print("matplotlib is not installed (pip install matplotlib): no picture")
    sys.exit(0)

matplotlib.use("Agg" if len(sys.argv) > 1 else matplotlib.get_backend())
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

figure, axes = plt.subplots(figsize=(5, 3.5))
axes.plot(dimensions, best, "o-", label="longest of 20,000")
axes.plot(dimensions, mean, "s--", label="mean")
axes.set_xlabel("dimension d")
axes.set_ylabel("snake length (edges)")
axes.set_title("Random snakes in the d-cube (Kinny's policy)")
# Dimensions and lengths are whole numbers: no tick at d = 5.5.
axes.xaxis.set_major_locator(MaxNLocator(integer=True))
axes.yaxis.set_major_locator(MaxNLocator(integer=True))
axes.legend()
figure.tight_layout()
figure.canvas.draw()
for axis, (low, high) in ((axes.xaxis, axes.get_xlim()), (axes.yaxis, axes.get_ylim())):
    shown = [tick for tick in axis.get_majorticklocs() if low <= tick <= high]
    assert all(float(tick).is_integer() for tick in shown), f"ticks between whole numbers: {shown}"
picture = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "first_hour.png")
picture.unlink(missing_ok=True)
figure.savefig(picture)
assert picture.stat().st_size > 0
print("saved", picture)
