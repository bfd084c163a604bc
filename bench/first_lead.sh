#!/usr/bin/env bash
# What `trump: first-lead` costs the double-dummy analysis: the same seeds of classic played
# twice by four Python heuristic sample bots, with the trump named by the declarer (plain) and
# by the first lead, then examples/dd_bench.rs over each set (CPU and wall of
# `replay --analyze` per game, and of its strain table). The first lead's suit is open, so the
# par is solved lead by lead (one solve per card the declarer may lead, not one), and each
# strain of the table is solved with its lead forced into it, one solve per card of the suit.
#
#   bash bench/first_lead.sh [GAMES] [OUT]        e.g. bash bench/first_lead.sh 4
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-4} out=${2:-/tmp/tarneeb-first-lead-bench}
cargo build --release --bin tarneeb --example dd_bench >&2
tarneeb=$(realpath "${TARNEEB:-target/release/tarneeb}")
mkdir -p "$out"
heuristic="python3 $PWD/sample-bots/python/heuristic_bot.py"
echo '{"preset": "classic"}' >"$out/plain.json"
echo '{"preset": "classic", "contract": {"trump": "first-lead"}}' >"$out/first-lead.json"
for kind in plain first-lead; do
  records=()
  for seed in $(seq 1 "$games"); do
    rec="$out/$kind-$seed.jsonl"
    [ -s "$rec" ] || "$tarneeb" play --rules "$out/$kind.json" --seed "$seed" \
      --bot "$heuristic" --bot "$heuristic" --bot "$heuristic" --bot "$heuristic" \
      --record "$rec" >/dev/null
    records+=("$rec")
  done
  echo "== $kind (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  target/release/examples/dd_bench 0 "${records[@]}"
done
