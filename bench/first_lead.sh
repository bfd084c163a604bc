#!/usr/bin/env bash
# What `trump: first-lead` costs the double-dummy analysis: the same seeds of classic played
# twice by four Python heuristic sample bots, with the trump named by the declarer (plain) and
# by the first lead, then examples/dd_bench.rs over each set (CPU and wall of
# `replay --analyze` per game, and of its strain table). The first lead's suit is open, so the
# par is solved lead by lead (one solve per card the declarer may lead, not one), and each
# strain of the table is solved with its lead forced into it, one solve per card of the suit.
#
#   bash bench/first_lead.sh [GAMES] [OUT]        e.g. bash bench/first_lead.sh 4
#
# TARNEEB=path picks another build of the referee for making the records, TARNEEB_EXAMPLES=dir
# the directory holding dd_bench; what is not given is built in the dist profile
# (target/dist/tarneeb, target/dist/examples/dd_bench). Records already in OUT are reused.
# SMOKE=1: the same pipeline at tiny sizes, in seconds, to check it still runs (bench/smoke.sh,
# CI): one one-hand game of each kind, in a temp OUT that is removed after; its figures mean
# nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=${SMOKE:-0} hands=""
if [ "$smoke" = 1 ]; then
  games=${1:-1} out=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-first-lead-smoke.XXXXXX")
  trap 'rm -rf "$out"' EXIT
  hands=', "max-hands": 1'
else
  games=${1:-4} out=${2:-/tmp/tarneeb-first-lead-bench}
fi
build=()
[ -n "${TARNEEB:-}" ] || build+=(--bin tarneeb)
[ -n "${TARNEEB_EXAMPLES:-}" ] || build+=(--example dd_bench)
if ((${#build[@]})); then cargo build --profile dist "${build[@]}" >&2; fi
tarneeb=$(realpath "${TARNEEB:-target/dist/tarneeb}")
dd_bench=$(realpath "${TARNEEB_EXAMPLES:-target/dist/examples}/dd_bench")
mkdir -p "$out"
heuristic="python3 $PWD/sample-bots/python/heuristic_bot.py"
echo "{\"preset\": \"classic\"$hands}" >"$out/plain.json"
echo "{\"preset\": \"classic\", \"contract\": {\"trump\": \"first-lead\"}$hands}" >"$out/first-lead.json"
for kind in plain first-lead; do
  records=()
  for seed in $(seq 1 "$games"); do
    rec="$out/$kind-$seed.jsonl"
    # --public-deals: both kinds get the seed's deals (else each run draws with a new secret key).
    [ -s "$rec" ] || "$tarneeb" play --rules "$out/$kind.json" --seed "$seed" --public-deals \
      --bot "$heuristic" --bot "$heuristic" --bot "$heuristic" --bot "$heuristic" \
      --record "$rec" >/dev/null
    records+=("$rec")
  done
  echo "== $kind (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  "$dd_bench" 0 "${records[@]}"
done
if [ "$smoke" = 1 ]; then echo "smoke run: sizes too small for figures"; fi
