#!/usr/bin/env bash
# othello_endgame.sh - how often an agent throws away an Othello endgame: it plays each position of
# POSITIONS (default plugins/othello/bench/data/othello_endgame_positions.txt: 14-20 empties, from GPU-vs-CPU match records,
# each with at least one move that loses value) over GTP and counts the moves whose exact win/draw/loss value
# is below the position's best. Far fewer samples than a match need, since every position has a known answer.
# Usage: plugins/othello/bench/othello_endgame.sh BUILD_BIN_DIR AGENT_SPEC [POSITIONS] [EVERY]
# (EVERY=k plays every k-th position only). Prints "errors E of N (rate)" and the errors by empty squares.
# A line of POSITIONS: moves from the start ("pass" included) | side to move (b/w) | best value | good moves.
# Lines starting with # are comments. Make more with BUILD_BIN_DIR/othello_endgame_positions (from
# `gsdk match --record` files; plugins/othello/bench/othello_endgame_positions.cpp).
set -uo pipefail
bin=${1:?usage: othello_endgame.sh BUILD_BIN_DIR AGENT_SPEC [POSITIONS] [EVERY]}
agent=${2:?agent spec}
positions=${3:-$(dirname "$0")/data/othello_endgame_positions.txt}
every=${4:-1}
picked=$(mktemp)
answers=$(mktemp)
trap 'rm -f "$picked" "$answers"' EXIT
grep -v '^#' "$positions" | awk -v every="$every" '(NR - 1) % every == 0' > "$picked"
# One GTP session: per position, clear the board, replay its moves (colours alternate; passes are moves), ask.
awk -F'|' '{ print "clear_board"; n = split($1, m, " "); c = "b";
             for (i = 1; i <= n; i++) { print "play " c " " m[i]; c = (c == "b") ? "w" : "b" }
             print "genmove " $2 }' "$picked" |
  "$bin/gsdk" gtp othello --agent "$agent" | grep -E '^(= [a-h][1-8]|= pass|\?)' > "$answers"
if grep -q '^?' "$answers"; then
  echo "GTP refused a command:" >&2
  grep '^?' "$answers" >&2
  exit 1
fi
if [ "$(wc -l < "$answers")" -ne "$(wc -l < "$picked")" ]; then
  echo "expected $(wc -l < "$picked") answers from gsdk gtp, got $(wc -l < "$answers")" >&2
  exit 1
fi
# Each answer against its position's good moves; the empty squares come from the move count.
paste -d'|' "$picked" <(sed 's/^= //' "$answers") | awk -F'|' '
  { n = split($1, m, " "); passes = 0; for (i = 1; i <= n; i++) passes += (m[i] == "pass");
    empties = 60 - (n - passes); total++; seen[empties]++;
    good = " " $4 " "; if (index(good, " " $5 " ") == 0) { errors++; wrong[empties]++ } }
  END { printf "errors %d of %d (%.3f)\n", errors, total, errors / total;
        for (e = 20; e >= 14; e--) if (seen[e]) printf "  %d empties: %d of %d\n", e, wrong[e], seen[e] }'
