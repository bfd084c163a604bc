#!/usr/bin/env bash
# League speed against a plain tournament (issue 44: "games per second the league sustains with
# native bots on 2 cores against a plain tournament, aim within 10%"), side by side in one run,
# alternating, on the same machine:
#
#   bash bench/league.sh
#
# Both play the C and Rust heuristic sample bots, GAMES games (duplicate pairs), --jobs 2, in
# the sandbox: the tournament a round robin of GAMES/2 deal sets, the league `league run --games
# GAMES` (every pair is the same two entrants: matchmaking, the database write and the rating
# after every game are what the league adds). Each measure is taken ROUNDS times; the median
# games per second and the ratio are printed.
# Knobs: ROUNDS (3), GAMES (1000), TARNEEB_BIN (default: target/dist/tarneeb, built here in the
# dist profile), SANDBOX (bwrap; none to compare). Needs gcc, cargo and bc.
# SMOKE=1: the same pipeline at tiny sizes (bench/smoke.sh, CI): ROUNDS 1, GAMES 4; its figures
# mean nothing. A benchmark reports figures; it asserts nothing about time.
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=${SMOKE:-0}
if [[ $SMOKE == 1 ]]; then
  ROUNDS=${ROUNDS:-1} GAMES=${GAMES:-4}
fi
ROUNDS=${ROUNDS:-3}
GAMES=${GAMES:-1000}
SANDBOX=${SANDBOX:-bwrap}
for tool in gcc cargo bc; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-lbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [[ -z "${TARNEEB_BIN:-}" ]]; then
  cargo build --profile dist --quiet --bin tarneeb
  TARNEEB_BIN=target/dist/tarneeb
fi
cp "$TARNEEB_BIN" "$tmp/tarneeb"
gcc -O2 -o "$tmp/c_bot" sample-bots/c/heuristic_bot.c
cargo build --release --quiet --manifest-path sample-bots/rust/Cargo.toml
cp sample-bots/rust/target/release/heuristic_bot "$tmp/rust_bot"

# faulted DIR NAME: a game lost to a fault is no measure
faulted() {
  if grep -q '"forfeit_seat":[0-9]' "$1/results.jsonl"; then
    echo "bench: games of the $2 ended in a fault:" >&2
    grep '"forfeit_seat":[0-9]' "$1/results.jsonl" | head -3 >&2
    exit 1
  fi
}

# tournament: prints "games seconds"
tournament() {
  local out="$tmp/t-$RANDOM" t0 t1
  t0=$(date +%s.%N)
  "$tmp/tarneeb" tournament --out "$out" --jobs 2 --seed 7 --sandbox "$SANDBOX" --progress off \
    --bot "c=$tmp/c_bot" --bot "rust=$tmp/rust_bot" --games $((GAMES / 2)) > /dev/null 2>&1
  t1=$(date +%s.%N)
  faulted "$out" tournament
  echo "$(wc -l < "$out/results.jsonl") $(echo "$t1 - $t0" | bc -l)"
  rm -rf "$out"
}

# league: prints "games seconds" (start and add are not timed: once per league)
league() {
  local out="$tmp/l-$RANDOM" t0 t1
  "$tmp/tarneeb" league start "$out" --seed 7 --sandbox "$SANDBOX" 2> /dev/null
  "$tmp/tarneeb" league add "$out" "c=$tmp/c_bot" 2> /dev/null
  "$tmp/tarneeb" league add "$out" "rust=$tmp/rust_bot" 2> /dev/null
  t0=$(date +%s.%N)
  "$tmp/tarneeb" league run "$out" --jobs 2 --progress off --games "$GAMES" > /dev/null 2>&1
  t1=$(date +%s.%N)
  faulted "$out" league
  echo "$(wc -l < "$out/results.jsonl") $(echo "$t1 - $t0" | bc -l)"
  rm -rf "$out"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
t_runs="" l_runs=""
for ((i = 0; i < ROUNDS; i++)); do
  t_runs+="$(tournament)"$'\n'
  l_runs+="$(league)"$'\n'
done
gps() { printf '%s' "$1" | awk 'NF == 2 {print $1 / $2}' | median; }
t=$(gps "$t_runs"); l=$(gps "$l_runs")
echo "sandbox: $SANDBOX, $GAMES games, --jobs 2, median of $ROUNDS"
printf '%-28s %10.1f\n' "tournament: games/s" "$t"
printf '%-28s %10.1f\n' "league: games/s" "$l"
printf '%-28s %10.3f\n' "league / tournament" "$(echo "$l / $t" | bc -l)"
if [[ $SMOKE == 1 ]]; then echo "smoke run: sizes too small for figures"; fi
