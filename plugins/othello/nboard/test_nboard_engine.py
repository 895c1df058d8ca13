#!/usr/bin/env python3
"""test_nboard_engine.py - drives nboard_engine.py through pipes as the NBoard GUI would and checks its
answers: the handshake, moves that are legal in the position through a whole game (judged by
gtp_referee.py's own Othello rules, not gsdk's), a forced pass, `ping` answered in order, and a `status`
line (with the bridge still answering) for each bad input: an illegal move, a non-standard start board, a
GGF that does not parse, an unknown command, a gsdk that dies; and exit status 2 when gsdk cannot be started.

    test_nboard_engine.py --gsdk build/bin/gsdk

Exit status 0 when every check holds, 1 otherwise (each failure printed).
"""
import argparse
import os
import queue
import random
import signal
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
from gtp_referee import Board, parse_vertex, vertex  # noqa: E402  (the test's rules, apart from gsdk's)

BRIDGE = os.path.join(HERE, "nboard_engine.py")
AGENT = "alphabeta:depth=2"  # fast: the test is about the protocol, not the play
ANSWER_TIMEOUT_S = 60  # a generous bound on a loaded machine: a bridge that hangs fails instead
START_BO = "BO[8 " + "-" * 27 + "O*" + "-" * 6 + "*O" + "-" * 27 + " *]"


def ggf(moves, board=START_BO):
    """A GGF game from the start with `moves`, (colour index, NBoard move) each."""
    body = "".join(f"{'BW'[colour]}[{move}]" for colour, move in moves)
    return f"(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[15:00]TY[8]{board}{body};)"


class Gui:
    """The GUI's end of the pipes to one bridge process."""

    def __init__(self, gsdk):
        self.process = subprocess.Popen([sys.executable, BRIDGE, "--gsdk", gsdk, "--agent", AGENT],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()
        self.pings = 0

    def read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix):
        """The first line starting with `prefix` and the lines before it."""
        before = []
        while True:
            try:
                line = self.lines.get(timeout=ANSWER_TIMEOUT_S)
            except queue.Empty:
                raise AssertionError(f"no '{prefix}' line within {ANSWER_TIMEOUT_S} s; read {before}") from None
            if line is None:
                raise AssertionError(f"the bridge ended before a '{prefix}' line; read {before}")
            if line.startswith(prefix):
                return line, before
            before.append(line)

    def answers(self, command):
        """Every line the bridge sends for `command`, up to the pong of a ping sent after it."""
        self.send(command)
        self.pings += 1
        self.send(f"ping {self.pings}")
        return self.until(f"pong {self.pings}")[1]

    def go(self):
        """The move of `=== MOVE`, checking the status lines around it."""
        self.send("go")
        answer, before = self.until("=== ")
        check(before == ["status gsdk is thinking"], f"go: lines before the move {before}")
        after = self.answers("")
        check(after == ["status"], f"go: an empty status line after the move, got {after}")
        return answer[4:]

    def quit(self):
        self.send("quit")
        return self.process.wait(timeout=ANSWER_TIMEOUT_S)


FAILURES = []


def check(condition, what):
    if not condition:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def replay(moves):
    """The test's own board after `moves`, (colour index, NBoard move) each."""
    board = Board()
    for colour, move in moves:
        square = parse_vertex(move.replace("PA", "pass"))
        if square != "pass":
            board.play(colour, *square)
    return board


def legal(board, colour):
    return {vertex(r, c).upper() for r, c in board.legal_moves(colour)}


def forced_pass_game():
    """Moves of a game (seeded random play) ending where the side to move must pass and the other can move."""
    chooser = random.Random(36)
    while True:
        board, moves, colour = Board(), [], 0
        while True:
            mine, theirs = board.legal_moves(colour), board.legal_moves(1 - colour)
            if not mine and theirs and moves:
                return moves, colour
            if not mine:
                break
            row, col = chooser.choice(mine)
            board.play(colour, row, col)
            moves.append((colour, vertex(row, col).upper()))
            colour = 1 - colour


def test_play(gsdk):
    gui = Gui(gsdk)
    gui.send("nboard 2")
    check(gui.until("set myname")[0] == "set myname gsdk", "nboard 2: set myname gsdk")
    opening = [(0, "F5"), (1, "F6"), (0, "D3"), (1, "C5"), (0, "E6"), (1, "F7"), (0, "E7"), (1, "F4")]
    for setting in ("set depth 6", "set contempt 0", f"set game {ggf(opening)}"):
        check(gui.answers(setting) == [], f"{setting}: no status line")
    first = gui.go()
    check(first in legal(replay(opening), 0), f"go after the opening: {first} is a legal move for black")
    check(gui.go() == first, "go does not play its move: a second go gives the same move (same seed)")
    check(gui.answers(f"move {first.lower()}/0.5/1.2") == [], f"move {first.lower()}/0.5/1.2 accepted")
    reply = gui.go()
    played = opening + [(0, first)]
    check(reply in legal(replay(played), 1), f"go after {first}: {reply} is a legal move for white")

    moves, passer = forced_pass_game()
    check(gui.answers(f"set game {ggf(moves)}") == [], "set game before a forced pass accepted")
    check(gui.go() == "PA", "go where the side to move has no move: === PA")
    check(gui.answers("move PA") == [], "move PA accepted")
    reply = gui.go()
    check(reply in legal(replay(moves), 1 - passer), f"go after the pass: {reply} is legal for the other side")
    # The same game with the pass left out, as a GUI may send it: the other side's move is accepted.
    check(gui.answers(f"set game {ggf(moves)}") == [], "set game again")
    check(gui.answers(f"move {reply}") == [], f"move {reply} after an implied pass accepted")
    check(gui.quit() == 0, "quit: exit status 0")


def test_whole_game(gsdk):
    """gsdk plays both sides of a game to its end as NBoard asks it to: go, then the move sent back."""
    gui = Gui(gsdk)
    gui.send("nboard 2")
    gui.until("set myname")
    check(gui.answers(f"set game {ggf([])}") == [], "set game at the start")
    board, colour, moves = Board(), 0, 0
    while board.legal_moves(0) or board.legal_moves(1):
        reply = gui.go()
        expected = legal(board, colour) or {"PA"}
        if reply not in expected:
            check(False, f"move {moves + 1} of a whole game: {reply} is not one of {sorted(expected)}")
            break
        check(gui.answers(f"move {reply}") == [], f"move {reply} sent back accepted")
        if reply != "PA":
            board.play(colour, *parse_vertex(reply))
        colour, moves = 1 - colour, moves + 1
    check(gui.go() == "PA", "go on a finished game: === PA")
    check(board.count(0) + board.count(1) > 4 and moves >= 30, f"a whole game was played ({moves} moves)")
    check(gui.quit() == 0, "quit after a whole game: exit status 0")


def single_status(lines, *words):
    return len(lines) == 1 and lines[0].startswith("status ") and all(w in lines[0] for w in words)


def test_bad_input(gsdk):
    gui = Gui(gsdk)
    gui.send("nboard 2")
    gui.until("set myname")
    check(gui.answers(f"set game {ggf([])}") == [], "set game at the start")
    lines = gui.answers("move A1")
    check(single_status(lines, "A1", "illegal"), f"move A1 at the start: a status line naming it, got {lines}")
    lines = gui.answers("move Z9")
    check(single_status(lines, "Z9"), f"move Z9: a status line naming it, got {lines}")
    check(gui.go() in legal(Board(), 0), "the refused moves changed nothing: go is legal at the start")

    other_start = START_BO.replace("---O*---", "--OO*---", 1)
    lines = gui.answers(f"set game {ggf([], other_start)}")
    check(single_status(lines, "set game", "BO[", "standard"), f"a non-standard BO: a status line, got {lines}")
    lines = gui.answers("go")
    check(single_status(lines, "go", "refused"), f"go after a refused game: a status line, no move, got {lines}")
    lines = gui.answers("set game (;GM[Othello]BO[8")
    check(single_status(lines, "not a GGF"), f"an unfinished GGF: a status line, got {lines}")
    lines = gui.answers(f"set game {ggf([(0, 'A1')])}")
    check(single_status(lines, "move 1", "a1", "illegal"), f"a GGF with an illegal move: status, got {lines}")
    for command, words in (("hint 3", ["hint"]), ("analyze", ["analyze"]), ("frobnicate 1", ["frobnicate"]),
                           ("set depth 99", ["99"]), ("set", ["setting ''"]),
                           ("nboard 1", ["version 2"])):
        lines = [line for line in gui.answers(command) if line != "set myname gsdk"]
        check(single_status(lines, *words), f"{command}: a status line naming {words}, got {lines}")
    check(gui.answers("learn") == ["learned"], "learn: learned")

    check(gui.answers(f"set game {ggf([])}") == [], "set game at the start again")
    with open(f"/proc/{gui.process.pid}/task/{gui.process.pid}/children") as children:
        gsdk_pid = int(children.read().split()[0])
    os.kill(gsdk_pid, signal.SIGKILL)
    lines = [line for line in gui.answers("go") if line != "status gsdk is thinking"]
    check(single_status(lines, "go", "gsdk was killed by signal 9"),
          f"go after gsdk was killed: a status line, got {lines}")
    lines = gui.answers("move D3")
    check(single_status(lines, "not running"), f"move with gsdk gone: a status line, got {lines}")
    check(gui.answers(f"set game {ggf([])}") == [], "set game starts gsdk again")
    check(gui.go() in legal(Board(), 0), "go with the restarted gsdk: a legal move")
    check(gui.quit() == 0, "quit after the bad input: exit status 0")


def test_no_gsdk():
    missing = "/nonexistent/gsdk"
    run = subprocess.run([sys.executable, BRIDGE, "--gsdk", missing], input="", capture_output=True, text=True,
                         timeout=ANSWER_TIMEOUT_S)
    check(run.returncode == 2 and missing in run.stderr,
          f"a gsdk that cannot start: exit 2 naming it, got {run.returncode} {run.stderr!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gsdk", required=True, help="the gsdk program, with its othello plugin")
    gsdk = parser.parse_args().gsdk
    tests = (lambda: test_play(gsdk), lambda: test_whole_game(gsdk), lambda: test_bad_input(gsdk), test_no_gsdk)
    for test in tests:
        try:
            test()
        except AssertionError as error:
            check(False, str(error))
    print(f"{len(FAILURES)} failure(s)" if FAILURES else "all NBoard checks passed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
