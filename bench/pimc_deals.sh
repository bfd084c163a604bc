#!/usr/bin/env bash
# Deals per decision by trick: four pimc bots play GAMES games of each preset (MAX_HANDS hands
# each, public deals from seeds 1..GAMES) at --ms MS, then bench/pimc_deals.py reads their
# stderr logs: the median deals solved per card by trick and by place in the trick, per call
# and trump choice, and the share of replies answered by rules of thumb.
#
#   bash bench/pimc_deals.sh TARNEEB [GAMES] [MS] [MAX_HANDS] [OUT]
#
# SMOKE=1: the same pipeline at tiny sizes, in seconds, to check it still runs (bench/smoke.sh,
# CI): one one-hand game of each preset at --ms 5, in a temp OUT that is removed after (TARNEEB
# may then be left out for $TARNEEB_BIN); its figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SMOKE:-0}" = 1 ]; then
  tarneeb=$(realpath "${1:-${TARNEEB_BIN:?SMOKE=1 needs TARNEEB or TARNEEB_BIN}}")
  games=${2:-1} ms=${3:-5} max=${4:-1}
  out=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-pimc-deals-smoke.XXXXXX")
  trap 'rm -rf "$out"' EXIT
else
  tarneeb=$(realpath "$1") games=${2:-3} ms=${3:-50} max=${4:-2} out=${5:-/tmp/tarneeb-pimc-deals}
fi
rm -rf "$out" && mkdir -p "$out"
bot="$tarneeb bot pimc --ms $ms"
for preset in classic egyptian 400 41; do
  echo "{\"preset\": \"$preset\", \"max-hands\": $max}" >"$out/$preset.json"
  for seed in $(seq 1 "$games"); do
    "$tarneeb" play --rules "$out/$preset.json" --seed "$seed" --public-deals \
      --record "$out/$preset-$seed.jsonl" --bot "$bot" --bot "$bot" --bot "$bot" --bot "$bot" >/dev/null
  done
done
python3 bench/pimc_deals.py "$out"/*.stderr.log
if [ "${SMOKE:-0}" = 1 ]; then echo "smoke run: sizes too small for figures"; fi
