#!/usr/bin/env python3
"""elo_round_robin.py - an Elo table of gsdk agents for any two-player game: every pair of the agents given plays
`gsdk match GAME` (colours alternating, each pair of games from the same random opening), and the ratings are the
Bradley-Terry maximum-likelihood fit of all the results (a draw counts half a win to each side), anchored so that
the first agent is at 0. Standard library only, so that it runs wherever gsdk runs.

    python3 bench/elo_round_robin.py --gsdk build/bin/gsdk --game othello --games 20 --opening-plies 4 \
        --agent ab=alphabeta:time=0.1 --agent uct=uct:time=0.1 --agent random=random

Writes a Markdown table (and with --json FILE every match's counts and the ratings). Each match runs with
`--json` into a temporary folder; a match that fails stops the table with its command and message.
"""
import argparse
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile

# One virtual draw between every pair keeps ratings finite when an agent wins or loses every game (a prior, as
# BayesElo's): its weight is small next to tens of real games.
VIRTUAL_DRAWS = 1.0


def parse_agent(text):
    name, sep, spec = text.partition("=")
    if not sep or not name or not spec:
        raise argparse.ArgumentTypeError(f"--agent '{text}': expected NAME=SPEC, e.g. ab=alphabeta:time=0.1")
    return name, spec


def play(args, a, b, folder):
    """Wins, draws and losses of agent a against agent b over args.games games."""
    out = os.path.join(folder, f"{a[0]}-{b[0]}.json")
    command = [args.gsdk, "match", args.game, "--agent0", a[1], "--agent1", b[1], "--games", str(args.games),
               "--opening-plies", str(args.opening_plies), "--seed", str(args.seed), "--parallel",
               str(args.parallel), "--json", out, "-q"] + [f"--param={p}" for p in args.param] + \
        [f"--plugin-dir={d}" for d in args.plugin_dir]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    with open(out, encoding="utf-8") as f:
        result = json.load(f)["result"]["a"]
    return result["wins"], result["draws"], result["losses"]


def fit_elo(names, results):
    """Bradley-Terry ratings by minorisation-maximisation (Hunter 2004), in Elo points, first agent at 0."""
    n = len(names)
    score = [[0.0] * n for _ in range(n)]  # score[i][j]: points i took from j
    games = [[0.0] * n for _ in range(n)]
    for (i, j), (w, d, l) in results.items():
        score[i][j] += w + d / 2 + VIRTUAL_DRAWS / 2
        score[j][i] += l + d / 2 + VIRTUAL_DRAWS / 2
        games[i][j] += w + d + l + VIRTUAL_DRAWS
        games[j][i] += w + d + l + VIRTUAL_DRAWS
    strength = [1.0] * n
    for _ in range(10000):
        updated = []
        for i in range(n):
            denominator = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i and games[i][j])
            updated.append(sum(score[i]) / denominator if denominator else strength[i])
        change = max(abs(math.log(u / s)) for u, s in zip(updated, strength))
        strength = updated
        if change < 1e-12:
            break
    return [400 * math.log10(s / strength[0]) for s in strength]


def main():
    parser = argparse.ArgumentParser(description="An Elo table of gsdk agents from a round robin of gsdk matches.")
    parser.add_argument("--gsdk", default="gsdk", help="the gsdk executable (default: gsdk on PATH)")
    parser.add_argument("--game", required=True)
    parser.add_argument("--agent", action="append", type=parse_agent, required=True,
                        help="NAME=SPEC, at least two; the first is the anchor (Elo 0)")
    parser.add_argument("--games", type=int, default=20, help="games per pair (default 20)")
    parser.add_argument("--opening-plies", type=int, default=4, help="random plies opening each pair of games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parallel", type=int, default=1, help="games of a match played at once")
    parser.add_argument("--param", action="append", default=[], help="a game parameter name=value (repeatable)")
    parser.add_argument("--plugin-dir", action="append", default=[], help="passed on to gsdk (repeatable)")
    parser.add_argument("--json", help="write the matches and the ratings here")
    args = parser.parse_args()
    names = [a[0] for a in args.agent]
    if len(args.agent) < 2 or len(set(names)) != len(names):
        parser.error(f"--agent: expected at least two agents with distinct names, got {names}")
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")

    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for i, j in itertools.combinations(range(len(names)), 2):
            try:
                results[(i, j)] = play(args, args.agent[i], args.agent[j], folder)
            except (RuntimeError, OSError, KeyError, ValueError) as e:
                print(f"error: {names[i]} against {names[j]}: {e}", file=sys.stderr)
                return 1
            w, d, l = results[(i, j)]
            print(f"{names[i]} - {names[j]}: +{w} ={d} -{l}", file=sys.stderr, flush=True)
    elo = fit_elo(names, results)

    print("| agent | spec | Elo | score | games |")
    print("|---|---|---|---|---|")
    for k in sorted(range(len(names)), key=lambda k: -elo[k]):
        points = sum(w + d / 2 if i == k else l + d / 2 for (i, j), (w, d, l) in results.items() if k in (i, j))
        played = sum(w + d + l for (i, j), (w, d, l) in results.items() if k in (i, j))
        print(f"| {names[k]} | `{args.agent[k][1]}` | {elo[k]:+.0f} | {points:g}/{played} | {played} |")
    print()
    print("| A - B | +win =draw -loss |")
    print("|---|---|")
    for (i, j), (w, d, l) in results.items():
        print(f"| {names[i]} - {names[j]} | +{w} ={d} -{l} |")
    if args.json:
        document = {"game": args.game, "games_per_pair": args.games, "opening_plies": args.opening_plies,
                    "seed": args.seed, "agents": dict(args.agent),
                    "matches": [{"a": names[i], "b": names[j], "wins": w, "draws": d, "losses": l}
                                for (i, j), (w, d, l) in results.items()],
                    "elo": dict(zip(names, elo))}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(document, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
