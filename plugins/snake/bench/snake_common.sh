# snake_common.sh - what the snake bench scripts share (sourced, not run): the longest snakes known for
# d = 3 .. 13, where a run may stop early, and the report of one run: its best length against time and
# its saved snake checked apart from the search.
known=(0 0 0 4 7 13 26 50 98 191 379 746 1476 2924)

# report_snake_run BIN RUN: prints RUN.events.jsonl's last improvements as "length seconds" and checks
# RUN.best.json with `snake_check` (the snake plugin's tool); fails when the check does.
report_snake_run() {
  sed -E 's/.*"seconds":([0-9.eE+-]+).*"score":([0-9]+).*/\2 \1/' "$2.events.jsonl" | tail -n "${3:-12}"
  "$1/snake_check" "$2.best.json"
}
