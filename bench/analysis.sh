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
# TARNEEB=path picks another build of the referee for making the records, TARNEEB_EXAMPLES=dir
# the directory holding dd_bench; what is not given is built in the dist profile
# (target/dist/tarneeb, target/dist/examples/dd_bench). Records already in OUT are reused.
# SMOKE=1: the same pipeline at tiny sizes, in seconds, to check it still runs (bench/smoke.sh,
# CI): one one-hand game of each preset and the random one, DEALS 1, in a temp OUT that is
# removed after; its figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=${SMOKE:-0}
if [ "$smoke" = 1 ]; then
  deals=${1:-1} out=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-analysis-smoke.XXXXXX")
  trap 'rm -rf "$out"' EXIT
  seeds=1
else
  deals=${1:-100} out=${2:-/tmp/tarneeb-analysis-bench}
  seeds="1 2 3"
fi
build=()
[ -n "${TARNEEB:-}" ] || build+=(--bin tarneeb)
[ -n "${TARNEEB_EXAMPLES:-}" ] || build+=(--example dd_bench)
if ((${#build[@]})); then cargo build --profile dist "${build[@]}" >&2; fi
tarneeb=$(realpath "${TARNEEB:-target/dist/tarneeb}")
dd_bench=$(realpath "${TARNEEB_EXAMPLES:-target/dist/examples}/dd_bench")
mkdir -p "$out"
heuristic="python3 $PWD/sample-bots/python/heuristic_bot.py"
random="python3 $PWD/sample-bots/python/random_bot.py"
records=()
record() { # NAME PRESET SEED BOT
  local rec="$out/$1.jsonl" rules=$2
  if [ "$smoke" = 1 ]; then
    rules="$out/$2.rules.json"
    echo "{\"preset\": \"$2\", \"max-hands\": 1}" >"$rules"
  fi
  # --public-deals: a seed's deals are the same in every run (else drawn with a new secret key).
  [ -s "$rec" ] || "$tarneeb" play --rules "$rules" --seed "$3" --public-deals \
    --bot "$4" --bot "$4" --bot "$4" --bot "$4" --record "$rec" >/dev/null
  records+=("$rec")
}
for preset in classic egyptian 400 41; do
  for seed in $seeds; do record "$preset-$seed" "$preset" "$seed" "$heuristic"; done
done
record random-classic-3 classic 3 "$random"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$dd_bench" "$deals" "${records[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$smoke" = 1 ]; then echo "smoke run: sizes too small for figures"; fi
