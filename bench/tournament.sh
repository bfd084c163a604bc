#!/usr/bin/env bash
# Tournament speed with bots kept up between games (protocol.md 4.4) against a fresh process
# per game (--fresh-bots), side by side in one run, alternating, on the same machine:
#
#   bash bench/tournament.sh
#
#  1. Python: the random and heuristic sample bots, a round robin of PY_GAMES deal sets
#     (duplicate: 2 x PY_GAMES games), --jobs 2.
#  2. Native: the C and Rust heuristic sample bots, a round robin of NATIVE_GAMES deal sets
#     (2 x NATIVE_GAMES games, 1,002 by default as in issue 14), --jobs 2 (pinned).
#  3. Native fixed cost per game (start or new_game, handshake, stop or keep): the same C and
#     Rust round robin with max-hands 1 and max-hands 2; a game's fixed cost is the 1-hand
#     game's CPU-seconds (jobs x wall) per game minus the cost of one hand (2-hand minus
#     1-hand).
# Each measure is taken ROUNDS times (kept and fresh alternating); the median is printed.
# Knobs: ROUNDS (3), PY_GAMES (20), NATIVE_GAMES (501), TARNEEB_BIN (default: target/dist/tarneeb,
# built here in the dist profile), SANDBOX (bwrap: the sandbox on, exit if bwrap is missing;
# none to compare), SKIP_PYTHON (1 to skip part 1). Needs gcc, cargo, bc and python3.
# SMOKE=1: the same pipeline at tiny sizes, in seconds, to check it still runs (bench/smoke.sh,
# CI): ROUNDS 1, PY_GAMES 1, NATIVE_GAMES 2 (the knobs still win if given); its figures mean
# nothing.
# A benchmark reports figures; it asserts nothing about time and is not part of `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=${SMOKE:-0}
if [[ $SMOKE == 1 ]]; then
  ROUNDS=${ROUNDS:-1} PY_GAMES=${PY_GAMES:-1} NATIVE_GAMES=${NATIVE_GAMES:-2}
fi
ROUNDS=${ROUNDS:-3}
PY_GAMES=${PY_GAMES:-20}
NATIVE_GAMES=${NATIVE_GAMES:-501}
SANDBOX=${SANDBOX:-bwrap}
SKIP_PYTHON=${SKIP_PYTHON:-0}

for tool in gcc cargo bc python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-tbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [[ -z "${TARNEEB_BIN:-}" ]]; then
  cargo build --profile dist --quiet --bin tarneeb
  TARNEEB_BIN=target/dist/tarneeb
fi
cp "$TARNEEB_BIN" "$tmp/tarneeb"
gcc -O2 -o "$tmp/c_bot" sample-bots/c/heuristic_bot.c
cargo build --release --quiet --manifest-path sample-bots/rust/Cargo.toml
cp sample-bots/rust/target/release/heuristic_bot "$tmp/rust_bot"

for h in 1 2; do
  echo "{\"preset\": \"classic\", \"max-hands\": $h}" > "$tmp/hands$h.json"
done

# run NAME MODE ARGS... : one tournament, prints "games seconds"
run() {
  local name=$1 mode=$2; shift 2
  local out="$tmp/$name-$mode-$RANDOM"
  local flag=()
  [[ $mode == fresh ]] && flag=(--fresh-bots)
  local t0 t1
  t0=$(date +%s.%N)
  # --public-deals: kept and fresh play the same deals (else each run draws with a new secret key)
  "$tmp/tarneeb" tournament --out "$out" --jobs 2 --seed 7 --public-deals --sandbox "$SANDBOX" "${flag[@]}" "$@" > /dev/null
  t1=$(date +%s.%N)
  # A game lost to a fault (a bot that failed to start in the sandbox, say) is no measure.
  if grep -q '"forfeit_seat":[0-9]' "$out/results.jsonl"; then
    echo "bench: games of the $name $mode tournament ended in a fault:" >&2
    grep '"forfeit_seat":[0-9]' "$out/results.jsonl" | head -3 >&2
    exit 1
  fi
  echo "$(wc -l < "$out/results.jsonl") $(echo "$t1 - $t0" | bc -l)"
  rm -rf "$out"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A results
measure() {
  local key=$1; shift
  for mode in kept fresh; do
    results[$key-$mode]=""
  done
  for ((i = 0; i < ROUNDS; i++)); do
    for mode in kept fresh; do
      read -r games secs < <(run "$key" "$mode" "$@")
      results[$key-$mode]+="$games $secs"$'\n'
    done
  done
}

py=(--bot "random=python3 sample-bots/python/random_bot.py"
    --bot "heuristic=python3 sample-bots/python/heuristic_bot.py" --games "$PY_GAMES")
native=(--bot "c=$tmp/c_bot" --bot "rust=$tmp/rust_bot")

echo "sandbox: $SANDBOX"
if [[ $SKIP_PYTHON != 1 ]]; then
  echo "== python round robin ($((2 * PY_GAMES)) games), kept vs fresh, $ROUNDS rounds"
  measure python "${py[@]}"
fi
echo "== native round robin ($((2 * NATIVE_GAMES)) games)"
measure native "${native[@]}" --games "$NATIVE_GAMES"
echo "== native fixed cost (max-hands 1 and 2, $((2 * NATIVE_GAMES)) games each)"
measure hands1 "${native[@]}" --games "$NATIVE_GAMES" --rules "$tmp/hands1.json"
measure hands2 "${native[@]}" --games "$NATIVE_GAMES" --rules "$tmp/hands2.json"

# games per second, median over rounds
gps() { printf '%s' "${results[$1]}" | awk 'NF == 2 {print $1 / $2}' | median; }
# CPU-milliseconds per game (2 jobs x wall / games), median over rounds
ms_per_game() { printf '%s' "${results[$1]}" | awk 'NF == 2 {print 2000 * $2 / $1}' | median; }

echo
printf '%-34s %12s %12s %8s\n' measure kept fresh ratio
for key in python native; do
  [[ $key == python && $SKIP_PYTHON == 1 ]] && continue
  k=$(gps "$key-kept"); f=$(gps "$key-fresh")
  printf '%-34s %12.1f %12.1f %8.2f\n' "$key round robin: games/s" "$k" "$f" "$(echo "$k / $f" | bc -l)"
done
for mode in kept fresh; do
  one=$(ms_per_game "hands1-$mode"); two=$(ms_per_game "hands2-$mode")
  fixed=$(echo "$one - ($two - $one)" | bc -l)
  printf '%-34s %12s\n' "native fixed ms/game ($mode)" "$(printf '%.2f' "$fixed")"
  printf '%-34s %12s\n' "  1-hand game, ms/game ($mode)" "$(printf '%.2f' "$one")"
  printf '%-34s %12s\n' "  one hand, ms ($mode)" "$(printf '%.2f' "$(echo "$two - $one" | bc -l)")"
done
if [[ $SMOKE == 1 ]]; then echo "smoke run: sizes too small for figures"; fi
