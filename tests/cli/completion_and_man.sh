#!/usr/bin/env bash
# completion_and_man.sh - the bash completion and the man page that gsdk writes from its own option tables: the
# script parses, registers itself, completes a command, an option, a game (only where the operand is one), an
# option's values (devices, templates, checks, agents, games) and a file; the man page has a section for every command `gsdk help` lists and every option of `gsdk run --help`,
# renders without a groff warning (where groff is installed), and the build's copies equal what gsdk writes now.
# Usage: completion_and_man.sh GSDK BUILD_DIR
set -euo pipefail
gsdk=$(realpath "$1") build=$(realpath "$2")
work=$(mktemp -d /tmp/gsdk-completion-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

"$gsdk" completion bash >gsdk.bash
bash -n gsdk.bash || fail "the completion script does not parse"
"$gsdk" completion zsh 2>err.txt && fail "completion zsh is accepted"
grep -q "no completion for shell 'zsh'; expected: bash" err.txt || fail "completion zsh: $(cat err.txt)"

# COMPREPLY for the words of a command line whose last word is being typed. COMP_WORDS[0] is the gsdk under test,
# which the script runs for the game names.
complete_words() {
  (
    set +eu
    # shellcheck disable=SC1091
    source ./gsdk.bash
    COMP_WORDS=("$gsdk" "$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _gsdk
    printf '%s\n' "${COMPREPLY[@]}"
  )
}
has() { grep -qx -- "$2" <<<"$1" || fail "completing '$3' offered [$(tr '\n' ' ' <<<"$1")], expected $2"; }
lacks() { ! grep -qx -- "$2" <<<"$1" || fail "completing '$3' offered $2"; }

[[ $(bash -c 'source ./gsdk.bash; complete -p gsdk') == "complete -F _gsdk gsdk" ]] ||
  fail "the script does not register _gsdk for gsdk"
words=$(complete_words r)
has "$words" run "gsdk r"
has "$words" replay "gsdk r"
lacks "$words" list "gsdk r"
words=$(complete_words run --check)
has "$words" --checkpoint "gsdk run --check"
has "$words" --checkpoint-every "gsdk run --check"
words=$(complete_words run --progress)
has "$words" --progress-every "gsdk run --progress"
words=$(complete_words perft --div)
has "$words" --divide "gsdk perft --div"
words=$(complete_words perft --no)
has "$words" --no-hash "gsdk perft --no"
words=$(complete_words perft --gpu)
has "$words" --gpu-hash-mb "gsdk perft --gpu"
words=$(complete_words help ma)
has "$words" match "gsdk help ma"
words=$(complete_words perft "")
has "$words" graveler "gsdk perft <game>"
has "$words" othello "gsdk perft <game>"
words=$(complete_words perft othello "")
lacks "$words" othello "gsdk perft othello <position>"
words=$(complete_words match --games 4 "")
has "$words" othello "gsdk match --games 4 <game>"
touch sweep.toml notes.txt
words=$(complete_words run sw)
has "$words" sweep.toml "gsdk run sw"
words=$(complete_words run sweep.toml --out no)
has "$words" notes.txt "gsdk run sweep.toml --out no"
words=$(complete_words completion "")
has "$words" bash "gsdk completion <shell>"
# Option values from what gsdk accepts: each command's own --device words, the templates in the templates' folder,
# the conformance checks, the agents' kinds; a file option still completes file names.
words=$(complete_words run sweep.toml --device "")
has "$words" auto "gsdk run --device"
has "$words" cuda "gsdk run --device"
words=$(complete_words check --device "")
has "$words" all "gsdk check --device"
lacks "$words" auto "gsdk check --device"
words=$(complete_words new-plugin mygame --template "")
has "$words" two-player "gsdk new-plugin --template"
has "$words" chance "gsdk new-plugin --template"
words=$(complete_words check x.so --only ru)
has "$words" 'rules.*' "gsdk check --only ru"
words=$(complete_words match othello --agent0 "")
has "$words" uct "gsdk match --agent0"
has "$words" alphabeta "gsdk match --agent0"
words=$(complete_words gtp othello --agent r)
has "$words" random "gsdk gtp --agent r"
words=$(complete_words bench --game oth)
has "$words" othello "gsdk bench --game oth"
words=$(complete_words run sweep.toml --checkpoint no)
has "$words" notes.txt "gsdk run --checkpoint no"

"$gsdk" help --man >gsdk.1
commands=$("$gsdk" help | sed -n 's/^  \([a-z-]*\) .*/\1/p')
[[ $(wc -l <<<"$commands") -ge 12 ]] || fail "gsdk help lists only: $commands"
while read -r command; do
  grep -qxF ".SS ${command//-/\\-}" gsdk.1 || fail "the man page has no section for $command"
done <<<"$commands"
for option in $("$gsdk" run --help | grep -o -- '--[a-z-]*' | sort -u); do
  grep -qF -- "\\fB${option//-/\\-}\\fR" gsdk.1 || fail "the man page does not list run's $option"
done
for section in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" ENVIRONMENT FILES; do
  grep -q "^\.SH \"\?$section\"\?$" gsdk.1 || fail "the man page has no $section section"
done
grep -q "^\.B GSDK_PLUGIN_PATH$" gsdk.1 || fail "the man page does not name GSDK_PLUGIN_PATH"
grep -q "^\.B GSDK_ALLOW_UNSAFE_PLUGINS$" gsdk.1 || fail "the man page does not name GSDK_ALLOW_UNSAFE_PLUGINS"

cmp -s gsdk.1 "$build/share/man/man1/gsdk.1" || fail "the build's gsdk.1 differs from gsdk help --man"
cmp -s gsdk.bash "$build/share/bash-completion/completions/gsdk" ||
  fail "the build's completion script differs from gsdk completion bash"

if ! command -v groff >/dev/null; then
  echo "groff is not installed: the man page's rendering is not checked"
  exit 0
fi
groff -man -Tutf8 -ww -z gsdk.1 2>groff.txt || fail "groff failed: $(cat groff.txt)"
[[ ! -s groff.txt ]] || fail "groff warns: $(cat groff.txt)"
groff -man -Tutf8 gsdk.1 2>/dev/null | grep -q "progress-every" || fail "the rendered page lacks run's --progress-every"
echo "completion and man page: ok"
