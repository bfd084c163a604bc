#!/usr/bin/env bash
# The pimc bot's strength: duplicate gauntlets against a heuristic sample bot in each game,
# then a README table row per game (bench/strength_table.py): win rate, Elo with its 95%
# interval, and each entrant's double-dummy tricks lost per hand over the same games.
#
#   bash bench/strength.sh OPPONENT_NAME "OPPONENT COMMAND" [GAMES] [MS] [OUT]
#
# e.g. bash bench/strength.sh c "$PWD/heuristic_bot" 6 50
# (build the C bot with gcc -O2 -o heuristic_bot sample-bots/c/heuristic_bot.c, the Rust one
# with cargo build --release --manifest-path sample-bots/rust/Cargo.toml). GAMES deal sets are
# each played twice with the sides swapped; TARNEEB=path picks another build of the referee
# (default: target/dist/tarneeb, built here in the dist profile), JOBS=J the games at once of
# each gauntlet (default: the number of CPUs), SEED=N the deals (default 1; another seed for a
# new replicate) and PRESETS="classic 400" the games to play (default all four).
# SMOKE=1: the same pipeline at tiny sizes, in seconds, to check it still runs (bench/smoke.sh,
# CI): one deal set of one-hand games per preset at --ms 5, in a temp OUT that is removed
# after; without an opponent, the C heuristic sample bot (built here) named c. Its figures mean
# nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=${SMOKE:-0}
if [ "$smoke" = 1 ]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-strength-smoke.XXXXXX")
  trap 'rm -rf "$out"' EXIT
  if [ $# -lt 2 ]; then
    gcc -O2 -o "$out/heuristic_bot" sample-bots/c/heuristic_bot.c
    set -- c "$out/heuristic_bot"
  fi
  name=$1 cmd=$2 games=${3:-1} ms=${4:-5}
else
  name=$1 cmd=$2 games=${3:-6} ms=${4:-50} out=${5:-/tmp/tarneeb-strength}
fi
if [ -z "${TARNEEB:-}" ]; then
  cargo build --profile dist --bin tarneeb
  TARNEEB=target/dist/tarneeb
fi
tarneeb=$(realpath "$TARNEEB")
seed=${SEED:-1} presets=${PRESETS:-classic egyptian 400 41}
dirs=()
for preset in $presets; do
  rules=$preset
  if [ "$smoke" = 1 ]; then
    rules="$out/$preset.json"
    echo "{\"preset\": \"$preset\", \"max-hands\": 1}" >"$rules"
  fi
  # Public deals: the sample and reference bots are ours, and runs of different versions must
  # meet the same deals to be compared.
  "$tarneeb" tournament --format gauntlet --rules "$rules" --games "$games" --seed "$seed" --public-deals ${JOBS:+--jobs "$JOBS"} \
    --bot "pimc=$tarneeb bot pimc --ms $ms" --bot "$name=$cmd" --out "$out/$name-$preset" >/dev/null
  dirs+=("$out/$name-$preset")
done
python3 bench/strength_table.py "$tarneeb" "${dirs[@]}"
if [ "$smoke" = 1 ]; then echo "smoke run: sizes too small for figures"; fi
