#!/usr/bin/env python3
"""snake_beam_cuts.py - improve a snake by searching its tail again: cut the best snake so far at several
points near its end, run one beam search from each cut (gsdk's beam, `starts_from`: search k from cut k), keep
the longest snake, and repeat from it until the time is up. A round that finds nothing longer goes on from the
snake it found if that is as long and another (a step along the plateau), with another seed (other tie-breaks,
and the cuts shifted by a move). A large-neighbourhood search around a snake, with the beam as the repair: a beam
from nothing keeps the states that look best now, and late in a long snake that misjudges the early moves; from a
cut near the end it searches only what is left, wide.

Usage: snake_beam_cuts.py GSDK_BIN_DIR START_SNAKE DIMENSION WIDTH SECONDS OUT_DIR [--step 8] [--depth 120]
  START_SNAKE: a snake file (docs/perf/snakes/*.json) of DIMENSION; every snake found is checked by snake_check
  (in GSDK_BIN_DIR) and the best written to OUT_DIR/best.json, each round's line to OUT_DIR/rounds.txt.
Runs on the GPU (`--device cuda`); pass --device cpu for a small smoke run. Exits non-zero when a run fails or a
snake does not check.
"""
import argparse
import json
import os
import subprocess
import sys
import time


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"snake_beam_cuts: {' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bin_dir")
    p.add_argument("start")
    p.add_argument("dimension", type=int)
    p.add_argument("width", type=int)
    p.add_argument("seconds", type=float)
    p.add_argument("out_dir")
    p.add_argument("--step", type=int, default=8, help="moves between two cuts")
    p.add_argument("--depth", type=int, default=120, help="the farthest cut, in moves from the end")
    p.add_argument("--device", default="cuda")
    a = p.parse_args()
    if a.step < 1 or a.depth < a.step:
        sys.exit(f"snake_beam_cuts: --step {a.step} and --depth {a.depth}: expected 1 <= step <= depth")
    os.makedirs(a.out_dir, exist_ok=True)
    gsdk, check = os.path.join(a.bin_dir, "gsdk"), os.path.join(a.bin_dir, "snake_check")
    best_file = os.path.join(a.out_dir, "best.json")
    try:
        with open(a.start) as f:
            best = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"snake_beam_cuts: cannot read the start snake {a.start}: {e}")
    if best.get("dimension") != a.dimension:
        sys.exit(f"snake_beam_cuts: {a.start} is a snake of dimension {best.get('dimension')}, not {a.dimension}")
    run([check, a.start])
    with open(best_file, "w") as f:
        json.dump(best, f)
    deadline = time.monotonic() + a.seconds
    seed, rounds = 1, open(os.path.join(a.out_dir, "rounds.txt"), "a")
    while time.monotonic() < deadline - 1:
        moves = best["moves"]
        # Seed s shifts the cuts by (s - 1) mod step moves, so rounds without a gain also try the points between.
        shift = (seed - 1) % a.step
        cuts = [len(moves) - back for back in range(a.step - shift, a.depth + 1, a.step) if back < len(moves)]
        prefixes = os.path.join(a.out_dir, "cuts.jsonl")
        with open(prefixes, "w") as f:
            for cut in cuts:
                f.write(json.dumps({"moves": moves[:cut]}) + "\n")
        found = os.path.join(a.out_dir, "round.json")
        started = time.monotonic()
        run([gsdk, "run", "configs/snake_beam.toml", "-q", "--device", a.device, "--set", f"seed={seed}",
             "--set", f"params.dimension={a.dimension}", "--set", "params.symmetry_breaking=false",
             "--set", f"beam.width={a.width}", "--set", "beam.children_per_parent=0",
             "--set", f"beam.restarts={len(cuts) - 1}", "--set", f'beam.starts_from="{prefixes}"',
             "--set", f"beam.time_seconds={max(deadline - time.monotonic(), 1):.0f}",
             "--set", f'output.best="{found}"', "--set", 'output.events=""', "--set", 'output.plot=""',
             "--out", os.path.join(a.out_dir, "round.results.json")])
        run([check, found])
        with open(found) as f:
            snake = json.load(f)
        line = (f"seed {seed}: cuts {cuts[-1]}..{cuts[0]} of {len(moves)}, width {a.width}: {snake['length']} "
                f"in {time.monotonic() - started:.1f} s")
        print(line, flush=True)
        rounds.write(line + "\n")
        rounds.flush()
        if snake["length"] > best["length"]:
            best = snake
            with open(best_file, "w") as f:
                json.dump(best, f)
        else:
            # As long and another snake: go on from it (other cuts, another neighbourhood); the same: other ties.
            if snake["length"] == best["length"] and snake["moves"] != best["moves"]:
                best = snake
            seed += 1
    print(f"best {best['length']}")


if __name__ == "__main__":
    main()
