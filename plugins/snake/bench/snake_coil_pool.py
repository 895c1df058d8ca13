#!/usr/bin/env python3
"""snake_coil_pool.py - a pool of long snakes cut from coils, as starts for the beam search.

A coil is an induced cycle of the n-cube; deleting one of its L vertices leaves an induced path of L - 1 vertices,
a snake of L - 2 moves, and each of the L deletions gives another one (read either way: two ends to grow from). The
known long coils are therefore a source of known long snakes, the warm starts the published records were grown from
(Meta-NRPA and Ace both extend a 9-cube snake of 190, the length a 192-coil gives). The coils are read from a CSV
file in the census format of the public snake-in-the-box datasets: a header, then rows `n,length,actions[,...]`,
where `actions` is the space-separated list of coordinates flipped from vertex 0, the last one closing the cycle.

Usage: snake_coil_pool.py COILS.csv DIMENSION OUT.jsonl [--every K] [--both-ways]
  Keeps the rows of dimension DIMENSION, checks that each is a coil (moves in 0 .. n-1, `length` of them, a closed
  walk through distinct vertices with no chord), and writes one JSON line a snake: {"score", "moves", "coil" (the
  CSV's line), "deleted" (the vertex's place on the coil), "reversed"}: every K-th deletion (default 1: all), each
  also read backwards with --both-ways. The lines are gsdk's `starts_from` pool format and snake_beam_grow.sh's
  START pool. A row that is not a coil is refused by file and line (exit 2).
"""
import argparse
import csv
import json
import sys


def refuse(message):
    print(f"snake_coil_pool: {message}", file=sys.stderr)
    sys.exit(2)


def coil_moves(row, where):
    """The row's moves, after checking that they close an induced cycle of the row's cube."""
    try:
        n, length = int(row[0]), int(row[1])
        moves = [int(m) for m in row[2].split()]
    except (IndexError, ValueError):
        refuse(f"{where}: expected n,length,actions (whole numbers, the actions space-separated), got {row[:3]}")
    if not 2 <= n <= 32 or any(not 0 <= m < n for m in moves):
        refuse(f"{where}: expected moves in 0 .. n - 1 of a cube of 2 .. 32 dimensions (n = {n})")
    if len(moves) != length or length < 4:
        refuse(f"{where}: expected `length` ({length}, at least 4) moves, got {len(moves)}")
    vertices, v = [], 0
    for m in moves:
        vertices.append(v)
        v ^= 1 << m
    if v != 0:
        refuse(f"{where}: the moves do not close a cycle (they end at vertex {v}, not 0)")
    place = {u: i for i, u in enumerate(vertices)}
    if len(place) != length:
        refuse(f"{where}: the cycle visits a vertex twice")
    for i, u in enumerate(vertices):
        cycle_neighbours = {(i + 1) % length, (i - 1) % length}
        for d in range(n):
            j = place.get(u ^ (1 << d))
            if j is not None and j not in cycle_neighbours:
                refuse(f"{where}: not a coil: the cycle's places {i} and {j} are adjacent vertices (a chord)")
    return n, moves


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("coils")
    p.add_argument("dimension", type=int)
    p.add_argument("out")
    p.add_argument("--every", type=int, default=1, help="delete every K-th vertex of each coil (default: all)")
    p.add_argument("--both-ways", action="store_true", help="write each snake read backwards too")
    a = p.parse_args()
    if a.every < 1:
        refuse(f"--every {a.every}: expected a whole number >= 1")
    try:
        with open(a.coils, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        refuse(f"cannot read {a.coils}: {e}")
    written = 0
    with open(a.out, "w") as out:
        for line, row in enumerate(rows, start=1):
            if line == 1 or not row or not row[0].strip().isdigit() or int(row[0]) != a.dimension:
                continue  # the header, blank lines and other dimensions' coils
            n, moves = coil_moves(row, f"{a.coils}:{line}")
            length = len(moves)
            for deleted in range(0, length, a.every):
                # The path from the deleted vertex's successor round to its predecessor: moves deleted + 1 ..
                # deleted + length - 2 (move i leads from vertex i to vertex i + 1).
                path = [moves[(deleted + 1 + k) % length] for k in range(length - 2)]
                for reversed_ in ([False, True] if a.both_ways else [False]):
                    snake = path[::-1] if reversed_ else path
                    out.write(json.dumps({"score": length - 2, "moves": snake, "coil": line, "deleted": deleted,
                                          "reversed": reversed_}) + "\n")
                    written += 1
    if written == 0:
        refuse(f"{a.coils} holds no coil of dimension {a.dimension}")
    print(f"snake_coil_pool: {written} snakes of dimension {a.dimension} written to {a.out}")


if __name__ == "__main__":
    main()
