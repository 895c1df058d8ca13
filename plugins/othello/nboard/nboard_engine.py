#!/usr/bin/env python3
"""nboard_engine.py - an Othello engine for NBoard (Chris Welty's Othello GUI, protocol version 2) that
plays with gsdk: it speaks NBoard on standard input and output and drives a `gsdk gtp othello` child
process over GTP, so that no Othello-specific protocol enters gsdk's host.

    nboard_engine.py --gsdk build/bin/gsdk [--agent SPEC] [--move-time SECONDS] [--seed S]

Commands answered (one line each, handled in order, so `pong N` follows every earlier command):
  nboard 2            -> set myname gsdk
  set game GGF        the game so far: replayed into gsdk with clear_board and play
  set depth N         accepted (1..60) and ignored: gsdk's agents are bounded by their spec (--agent) and
                      time (--move-time); a search depth means nothing to UCT and differs from the spec's
  set contempt N      accepted and ignored: gsdk's agents play for the game's score, with no draw bias
  move SQUARE[/EVAL[/TIME]]  a move of the current game, PA for a pass
  go                  -> === SQUARE (or === PA) after `status gsdk is thinking`, then `status`; the move
                      is not played: NBoard sends it back with `move`, as it does the opponent's
  ping N              -> pong N
  learn               -> learned (gsdk keeps no book)
  hint N, analyze     -> a status line saying they are not supported (gsdk reports no evaluations)
  quit (or end of input) ends gsdk and the bridge.
NBoard has no error reply: bad input (a GGF that does not parse, a start position other than the
standard one, which GTP cannot set up, an illegal move) and a gsdk that dies are reported as a
`status ...` line naming the problem, and the bridge keeps answering. The bridge exits 2 when gsdk
cannot be started.

No Python package speaks NBoard or GTP, so both small protocol ends are written here by hand.
"""
import argparse
import re
import shlex
import subprocess
import sys

START_BOARD = "-" * 27 + "O*" + "-" * 6 + "*O" + "-" * 27
COLOURS = {"B": "b", "W": "w"}
GGF_GAME = re.compile(r"^\(;(.*);\)$", re.S)
GGF_PROPERTY = re.compile(r"([A-Z]+)\[([^\]]*)\]")
SQUARE = re.compile(r"^[A-Ha-h][1-8]$")


class GsdkDied(Exception):
    """gsdk's GTP process ended or closed its output."""


class GtpRefused(Exception):
    """gsdk answered a GTP command with `? message`."""


class Gsdk:
    """The `gsdk gtp othello` child process and one GTP exchange at a time with it."""

    def __init__(self, command):
        self.command = command
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                            bufsize=1)
        except OSError as error:
            raise GsdkDied(f"cannot start gsdk ({shlex.join(command)}): {error}") from error

    def ask(self, command):
        """gsdk's answer to one GTP command; GtpRefused for `? ...`, GsdkDied when gsdk is gone."""
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise GsdkDied(self.death(command)) from None
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise GsdkDied(self.death(command))
            line = line.rstrip("\r\n")
            if not line and lines:
                break
            if line:
                lines.append(line)
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise GtpRefused(answer[1:].strip())
        if not answer.startswith("="):
            raise GsdkDied(f"gsdk answered '{command}' with '{answer}', which is not GTP")
        return answer[1:].strip()

    def death(self, command):
        try:
            code = self.process.wait(timeout=1)  # its output closed: it is ending
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            status = "is still running but closed its output"
        else:
            status = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
        return f"gsdk {status} at GTP command '{command}' ({shlex.join(self.command)})"

    def close(self):
        if self.process.poll() is None:
            try:
                self.ask("quit")
            except (GsdkDied, GtpRefused):
                pass
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class BadInput(Exception):
    """A command from the GUI that the bridge cannot follow; the message names the value."""


def gtp_move(nboard_move):
    """gsdk's spelling (d3, pass) of an NBoard move (D3, d3, PA, pass), any /eval/time dropped."""
    square = nboard_move.split("/")[0].strip()
    if square.upper() in ("PA", "PASS"):
        return "pass"
    if not SQUARE.match(square):
        raise BadInput(f"'{nboard_move}' is not a move (expected a square a1..h8 or PA, e.g. F5 or F5/-1.2)")
    return square.lower()


def nboard_move(gtp_answer):
    """NBoard's spelling (F5, PA) of gsdk's move (f5, pass)."""
    return "PA" if gtp_answer.lower() == "pass" else gtp_answer.upper()


def parse_ggf(ggf):
    """The moves of a GGF Othello game as (colour, move) in GTP spelling, checking that it starts from
    the standard position (the only one `clear_board` gives)."""
    game = GGF_GAME.match(ggf.strip())
    if not game:
        raise BadInput(f"'{ggf}' is not a GGF game (expected (;GM[Othello]...BO[8 ...]B[F5]...;))")
    moves = []
    board = None
    for name, value in GGF_PROPERTY.findall(game.group(1)):
        if name == "GM" and value.lower() != "othello":
            raise BadInput(f"GM[{value}]: gsdk plays Othello here (GM[Othello])")
        if name == "BO":
            board = value.split()
            cells = "".join(board[1:-1]).replace(".", "-").upper()
            if len(board) < 3 or board[0] != "8" or cells != START_BOARD or board[-1] != "*":
                raise BadInput(f"BO[{value}] is not the standard 8x8 start with black to move; GTP's "
                               "clear_board sets up only that one")
        if name in COLOURS:
            moves.append((COLOURS[name], gtp_move(value)))
    if board is None:
        raise BadInput(f"'{ggf}' has no BO[...] board")
    return moves


def label(command, rest):
    """How a status line names the command it reports on: `set game`, `move`, ..."""
    return f"{command} {rest.split()[0]}" if command == "set" and rest else command


class Bridge:
    """Follows the NBoard commands, keeping gsdk's game equal to the GUI's."""

    def __init__(self, gsdk_command, move_time, out):
        self.gsdk_command = gsdk_command
        self.move_time = move_time
        self.out = out
        self.gsdk = self.start_gsdk()
        self.moves = []  # the game's moves, (colour, move) in GTP spelling
        self.game_problem = "no game yet: the GUI sends `set game` first"

    def start_gsdk(self):
        gsdk = Gsdk(self.gsdk_command)
        gsdk.ask("protocol_version")  # a gsdk that cannot start (a bad --agent) ends here
        if self.move_time is not None:
            gsdk.ask(f"time_settings 0 {self.move_time} 1")
        return gsdk

    def send(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def handle(self, line):
        """Answers one NBoard line; False once the GUI says quit."""
        words = line.split(maxsplit=1)
        if not words:
            return True
        command, rest = words[0], words[1].strip() if len(words) > 1 else ""
        if command == "quit":
            return False
        try:
            self.execute(command, rest)
        except (BadInput, GtpRefused) as problem:
            self.send(f"status {label(command, rest)}: {problem}")
        except GsdkDied as death:
            self.close()
            self.gsdk = None
            self.game_problem = f"gsdk is not running: {death}; the next `set game` starts it again"
            self.send(f"status {label(command, rest)}: {death}")
        return True

    def execute(self, command, rest):
        if command == "nboard":
            if rest != "2":
                self.send(f"status nboard {rest}: this engine speaks NBoard protocol version 2")
            self.send("set myname gsdk")
        elif command == "set":
            name, _, value = rest.partition(" ")
            self.set(name, value.strip())
        elif command == "move":
            self.move(rest)
        elif command == "go":
            self.go()
        elif command == "ping":
            self.send(f"pong {rest}")
        elif command == "learn":
            self.send("learned")
        elif command in ("hint", "analyze"):
            self.send(f"status {command} is not supported: gsdk's agents give a move, not evaluations")
        else:
            raise BadInput(f"unknown command '{command}'")

    def set(self, name, value):
        if name == "game":
            self.set_game(value)
        elif name == "depth":
            if not value.isdigit() or not 1 <= int(value) <= 60:
                raise BadInput(f"depth '{value}' is not an integer from 1 to 60")
        elif name != "contempt":
            raise BadInput(f"unknown setting '{name}' (expected game, depth or contempt)")

    def set_game(self, ggf):
        self.game_problem = "the last `set game` was refused"
        moves = parse_ggf(ggf)
        if self.gsdk is None:
            self.gsdk = self.start_gsdk()
        self.replay(moves)
        self.game_problem = None

    def replay(self, moves):
        """Sets gsdk's game to `moves` from the start, (colour, move) each."""
        self.gsdk.ask("clear_board")
        self.moves = []
        for number, (colour, move) in enumerate(moves, 1):
            try:
                self.gsdk.ask(f"play {colour} {move}")
            except GtpRefused as refusal:
                raise BadInput(f"move {number} of the game, {colour.upper()}[{move}]: {refusal}") from None
            self.moves.append((colour, move))

    def last_mover(self):
        return self.moves[-1][0] if self.moves else "w"  # black moves first in the start position

    def side_to_move(self):
        return "b" if self.last_mover() == "w" else "w"

    def require_game(self):
        if self.game_problem:
            raise BadInput(self.game_problem)

    def move(self, text):
        self.require_game()
        move = gtp_move(text)
        side = self.side_to_move()
        try:
            self.gsdk.ask(f"play {side} {move}")
        except GtpRefused:
            # NBoard may leave out a forced pass: gsdk plays the other side after an implied pass only
            # where the side to move has nothing but a pass.
            side = self.last_mover()
            try:
                self.gsdk.ask(f"play {side} {move}")
            except GtpRefused as refusal:
                raise BadInput(f"'{text}': {refusal} for either side") from None
        self.moves.append((side, move))

    def go(self):
        """Answers the move gsdk chooses without playing it: NBoard sends the move it plays back with
        `move` (or a new `set game`). gsdk's `undo` cannot take back a genmove on a finished game (that
        genmove changes nothing), so the game is replayed instead: a few dozen GTP plays, no search."""
        self.require_game()
        self.send("status gsdk is thinking")
        move = self.gsdk.ask(f"genmove {self.side_to_move()}")
        self.replay(self.moves)
        self.send(f"=== {nboard_move(move)}")
        self.send("status")

    def close(self):
        if self.gsdk is not None:
            self.gsdk.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gsdk", default="gsdk", help="the gsdk program (default: gsdk on PATH)")
    parser.add_argument("--agent", help="gsdk's agent spec, e.g. alphabeta:time=1 (default: gsdk gtp's)")
    parser.add_argument("--seed", type=int, help="gsdk gtp's --seed")
    parser.add_argument("--move-time", type=float,
                        help="seconds a move, given to gsdk by GTP time_settings (default: the agent spec's budget)")
    args = parser.parse_args()
    if args.move_time is not None and args.move_time <= 0:
        parser.error(f"--move-time {args.move_time}: expected seconds > 0")
    command = [args.gsdk, "gtp", "othello"]
    if args.agent:
        command += ["--agent", args.agent]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    try:
        bridge = Bridge(command, args.move_time, sys.stdout)
    except (GsdkDied, GtpRefused) as problem:
        print(f"nboard_engine: {problem}", file=sys.stderr)
        return 2
    sys.stdin.reconfigure(errors="replace")  # a stray byte is an unknown command, not a crash
    try:
        for line in sys.stdin:
            if not bridge.handle(line.strip()):
                break
    finally:
        bridge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
