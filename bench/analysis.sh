#!/usr/bin/env bash
# Double-dummy analysis speed (examples/dd_bench.rs) over a fixed set of records of every
# preset: 3 games each of classic, Egyptian, 400 and Forty-One between four Python heuristic
# sample bots (play --seed 1..3) and one classic game of random bots (--seed 3). Prints DDS's
# time for a fresh deal (best value only, and every lead valued, DDS's own published measure)
# over DEALS deals, then per game the mean and p99 CPU and wall time of `replay --analyze`
# (and its strain table's share), of the reference algorithm it replaced, and of the
# card-play accuracy alone (`tournament --analyze`), all in one run.
#
#   bash bench/analysis.sh [DEALS] [OUT]        e.g. bash bench/analysis.sh 100
#
# TARNEEB=path picks another build of the referee for making the records.
set -euo pipefail
cd "$(dirname "$0")/.."
deals=${1:-100} out=${2:-/tmp/tarneeb-analysis-bench}
cargo build --release --bin tarneeb --example dd_bench >&2
tarneeb=$(realpath "${TARNEEB:-target/release/tarneeb}")
mkdir -p "$out"
heuristic="python3 $PWD/sample-bots/python/heuristic_bot.py"
random="python3 $PWD/sample-bots/python/random_bot.py"
records=()
record() { # NAME PRESET SEED BOT
  local rec="$out/$1.jsonl"
  [ -s "$rec" ] || "$tarneeb" play --rules "$2" --seed "$3" \
    --bot "$4" --bot "$4" --bot "$4" --bot "$4" --record "$rec" >/dev/null
  records+=("$rec")
}
for preset in classic egyptian 400 41; do
  for seed in 1 2 3; do record "$preset-$seed" "$preset" "$seed" "$heuristic"; done
done
record random-classic-3 classic 3 "$random"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
target/release/examples/dd_bench "$deals" "${records[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
