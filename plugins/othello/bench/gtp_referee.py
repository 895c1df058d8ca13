#!/usr/bin/env python3
"""gtp_referee.py - plays Othello matches between two GTP engines (e.g. `gsdk gtp othello` and GRhino's
`gtp-rhino`), colours alternating, with its own Othello rules written apart from gsdk's plugin so that
neither engine judges itself. Each engine gets `time_settings` (and `time_left` before each of its
moves); every move's wall time is recorded; an illegal or unreadable move, an engine that dies or an
answer later than the time allowed loses the game (the table says which). Prints a results table and
writes JSON (--json).

Exit status: 0 when every game finished, 1 when a game was forfeited or an engine failed, 2 for bad
usage, 77 (ctest's skip) when an engine's program is not installed and --skip-missing is given.

No Python GTP controller is packaged in Debian, so the small one here is written by hand.
"""
import argparse
import json
import shlex
import shutil
import signal
import subprocess
import sys
import time

SIZE = 8
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
COLOURS = ["black", "white"]
PERIOD_STONES = 10


class Board:
    """An Othello position: cells[row][col] is 0 (black), 1 (white) or None; black moves first."""

    def __init__(self):
        self.cells = [[None] * SIZE for _ in range(SIZE)]
        self.cells[3][3] = self.cells[4][4] = 1
        self.cells[3][4] = self.cells[4][3] = 0

    def flips(self, player, row, col):
        if self.cells[row][col] is not None:
            return []
        flipped = []
        for dr, dc in DIRECTIONS:
            r, c, line = row + dr, col + dc, []
            while 0 <= r < SIZE and 0 <= c < SIZE and self.cells[r][c] == 1 - player:
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and 0 <= r < SIZE and 0 <= c < SIZE and self.cells[r][c] == player:
                flipped += line
        return flipped

    def legal_moves(self, player):
        return [(r, c) for r in range(SIZE) for c in range(SIZE) if self.flips(player, r, c)]

    def play(self, player, row, col):
        for r, c in self.flips(player, row, col) + [(row, col)]:
            self.cells[r][c] = player

    def count(self, player):
        return sum(row.count(player) for row in self.cells)


def vertex(row, col):
    """Rows are numbered from 1 at the top and columns lettered from a at the left, as Othello GTP engines do."""
    return "abcdefgh"[col] + str(row + 1)


def parse_vertex(text):
    text = text.strip().lower()
    if text == "pass":
        return "pass"
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        return None
    return int(text[1]) - 1, "abcdefgh".index(text[0])


class EngineError(Exception):
    pass


class Engine:
    """One GTP engine process: send a command, read its response (up to the blank line that ends it)."""

    def __init__(self, command, name):
        self.name = name
        self.command = command
        try:
            self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            raise EngineError(f"{name}: cannot start '{command}': {e}") from e

    def send(self, command):
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"{self.name}: engine '{self.command}' closed its input at '{command}'") from e
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise EngineError(f"{self.name}: engine '{self.command}' ended while answering '{command}'")
            line = line.rstrip("\r\n")
            if not line.strip() and lines:
                break
            if line.strip():
                lines.append(line)
        text = "\n".join(lines)
        if not text.startswith("="):
            raise EngineError(f"{self.name}: '{command}' was refused: {text}")
        return text[1:].strip()

    def close(self):
        # quit without waiting for its answer: an engine stopped mid-search may answer only when its move is found.
        try:
            self.process.stdin.write("quit\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def play_game(engines, black, move_time, slack):
    """One game; engines[black] plays black. Returns the game's record (dict).

    The clock is Canadian byo-yomi with no main time: PERIOD_STONES moves in PERIOD_STONES * move_time
    seconds, whole seconds as GTP's time_settings takes them, the period starting anew after its moves."""
    board = Board()
    players = [engines[black], engines[1 - black]]
    period = max(1, round(move_time * PERIOD_STONES))
    clock = [[float(period), PERIOD_STONES] for _ in range(2)]  # [seconds left, stones left] of each side
    for e in players:
        e.send("clear_board")
        e.send("boardsize 8")
        e.send(f"time_settings 0 {period} {PERIOD_STONES}")
    moves, player, passes = [], 0, 0
    record = {"black": players[0].name, "white": players[1].name, "moves": moves}
    while True:
        legal = board.legal_moves(player)
        if not legal and not board.legal_moves(1 - player):
            break
        engine = players[player]
        engine.send(f"time_left {COLOURS[player]} {max(0, int(clock[player][0]))} {clock[player][1]}")
        started = time.monotonic()
        try:
            answer = engine.send(f"genmove {COLOURS[player]}")
        except EngineError as e:
            record.update(forfeit=COLOURS[player], reason=str(e))
            return record
        spent = time.monotonic() - started
        clock[player][0] -= spent
        clock[player][1] -= 1
        move = parse_vertex(answer)
        moves.append({"colour": COLOURS[player], "move": answer.lower(), "seconds": round(spent, 4)})
        if move is None or (move == "pass" and legal) or (move != "pass" and move not in legal):
            record.update(forfeit=COLOURS[player], reason=f"{engine.name} played illegal move '{answer}' as "
                                                          f"{COLOURS[player]}; legal: "
                                                          f"{' '.join(vertex(*m) for m in legal) or 'pass'}")
            return record
        if clock[player][0] < -slack:
            record.update(forfeit=COLOURS[player],
                          reason=f"{engine.name} overstepped its time by {-clock[player][0]:.2f} s")
            return record
        if clock[player][1] == 0:
            clock[player] = [float(period), PERIOD_STONES]
        player = 1 - player
        # A pass is not sent on: GRhino refuses `play COLOUR pass` and, like gsdk, takes the side without a move
        # to have passed when the other side moves twice.
        if move == "pass":
            continue
        board.play(1 - player, *move)
        try:
            players[player].send(f"play {COLOURS[1 - player]} {answer}")
        except EngineError as e:
            record.update(forfeit=COLOURS[player], reason=str(e))
            return record
    record["discs"] = {"black": board.count(0), "white": board.count(1)}
    return record


def winner_name(record):
    if "forfeit" in record:
        return record["white" if record["forfeit"] == "black" else "black"]
    discs = record["discs"]
    if discs["black"] == discs["white"]:
        return None
    return record["black"] if discs["black"] > discs["white"] else record["white"]


def main():
    parser = argparse.ArgumentParser(description="Othello matches between two GTP engines, refereed here.")
    parser.add_argument("--engine-a", required=True, help="command line of the first engine (black in game 1)")
    parser.add_argument("--engine-b", required=True, help="command line of the second engine")
    parser.add_argument("--name-a", default="A")
    parser.add_argument("--name-b", default="B")
    parser.add_argument("--games", type=int, default=2, help="games, colours alternating (default 2)")
    parser.add_argument("--move-time", type=float, default=0.5,
                        help="seconds a move: time_settings 0 10*T 10, byo-yomi of 10 moves in 10*T s (default 0.5)")
    parser.add_argument("--slack", type=float, default=2.0,
                        help="seconds over its clock a side may run before it forfeits (process latency; default 2; 1e9: no forfeit)")
    parser.add_argument("--json", help="write the games and the result here as JSON")
    parser.add_argument("--skip-missing", action="store_true",
                        help="exit 77 (a skipped test) when an engine's program is not installed")
    args = parser.parse_args()
    if args.games < 1 or args.move_time <= 0:
        parser.error(f"--games must be at least 1 and --move-time above 0, got {args.games} and {args.move_time}")
    for command in (args.engine_a, args.engine_b):
        program = shlex.split(command)[0] if command.strip() else ""
        if shutil.which(program) is None:
            message = f"engine program '{program}' is not installed (not found on PATH or as a path)"
            if args.skip_missing:
                print(f"skipped: {message}", file=sys.stderr)
                return 77
            print(f"error: {message}", file=sys.stderr)
            return 2

    names = [args.name_a, args.name_b]
    records, failed = [], False
    try:
        engines = [Engine(args.engine_a, names[0]), Engine(args.engine_b, names[1])]
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    # A match stopped by Ctrl-C or `timeout` still reports (and saves) the games it finished.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        for game in range(args.games):
            record = play_game(engines, game % 2, args.move_time, args.slack)
            records.append(record)
            print(f"game {game + 1}: {record['black']} (black) {record['discs']['black'] if 'discs' in record else '-'}, "
                  f"{record['white']} (white) {record['discs']['white'] if 'discs' in record else '-'}",
                  file=sys.stderr, flush=True)
            if "forfeit" in record:
                failed = True
                print(f"game {game + 1}: {record['forfeit']} forfeits: {record['reason']}", file=sys.stderr)
                # A forfeit can leave an engine mid-answer: start both afresh for the next game.
                for e in engines:
                    e.close()
                engines = [Engine(args.engine_a, names[0]), Engine(args.engine_b, names[1])]
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        failed = True
    except KeyboardInterrupt:
        print(f"stopped after {len(records)} of {args.games} games", file=sys.stderr)
        failed = True
    finally:
        # A second Ctrl-C or a signal to the whole process group must not lose the games already played.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for e in engines:
            e.close()

    wins = {n: 0 for n in names}
    draws = 0
    print(f"{'game':>4}  {'black':<10} {'white':<10} {'discs':>7}  {'winner':<10} {'max s/move':>10}  note")
    for i, r in enumerate(records):
        w = winner_name(r)
        if w is None:
            draws += 1
        else:
            wins[w] += 1
        discs = f"{r['discs']['black']}-{r['discs']['white']}" if "discs" in r else "-"
        slowest = max((m["seconds"] for m in r["moves"]), default=0)
        note = f"{r['forfeit']} forfeits" if "forfeit" in r else ""
        print(f"{i + 1:>4}  {r['black']:<10} {r['white']:<10} {discs:>7}  {w or 'draw':<10} {slowest:>10.3f}  {note}")
    print(f"{names[0]} {wins[names[0]]}, {names[1]} {wins[names[1]]}, draws {draws} of {len(records)} games")
    result = {"engines": {names[0]: args.engine_a, names[1]: args.engine_b}, "move_time": args.move_time,
              "wins": wins, "draws": draws, "games": records}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    return 1 if failed or len(records) < args.games else 0


if __name__ == "__main__":
    sys.exit(main())
