#!/usr/bin/env bash
# pimc against an older pimc (another build of the referee, e.g. the commit before a change),
# duplicate gauntlets at the same --ms in each of the four games, then bench/strength_table.py
# (the new one is "pimc", the old one "old"): per game the standings' rating, pooled the
# head-to-head Elo difference.
#
#   bash bench/pimc_versions.sh OLD_TARNEEB [GAMES] [MS] [MAX_HANDS] [OUT]
#
# e.g. (the old build in a directory of its own, from git archive):
#   mkdir -p /tmp/pimc-old && git archive BASE | tar -x -C /tmp/pimc-old
#   (cd /tmp/pimc-old && CARGO_TARGET_DIR=/tmp/pimc-old-target cargo build --profile dist --bin tarneeb)
#   bash bench/pimc_versions.sh /tmp/pimc-old-target/dist/tarneeb 4 50 4
# (a BASE from before Cargo.toml's dist profile: --release there was the same build, and its
# binary is in release/)
# GAMES deal sets each played twice with the sides swapped; MAX_HANDS caps a game's hands
# (0: whole games) so that a short run still covers every game.
#
# Issue 28's --ms scaling curve (docs/analysis.md, "Strength"): the baseline fixed at --ms 50,
# the new build copied, one game at a time, the deal sets cut as --ms grows to fit the time:
#   OLD_MS=50 JOBS=1 NEW_TARNEEB=/tmp/pimc-new bash bench/pimc_versions.sh OLD 10 50 4 OUT50
#   OLD_MS=50 JOBS=1 NEW_TARNEEB=/tmp/pimc-new bash bench/pimc_versions.sh OLD 5 500 4 OUT500
#   OLD_MS=50 JOBS=1 NEW_TARNEEB=/tmp/pimc-new bash bench/pimc_versions.sh OLD 2 5000 2 OUT5000
# (about 30, 23 and 12 minutes at load 4 to 12 on 2 cores), and the new bot's deals per
# decision from the same games: python3 bench/pimc_deals.py --entrant pimc OUT50/old-*
#
# SMOKE=1: the same pipeline at tiny sizes, in seconds, to check it still runs (bench/smoke.sh,
# CI): one deal set of one-hand games per preset at --ms 5, in a temp OUT that is removed
# after; OLD_TARNEEB and NEW_TARNEEB default to $TARNEEB_BIN (the build against itself). Its
# figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SMOKE:-0}" = 1 ]; then
  : "${TARNEEB_BIN:?SMOKE=1 needs TARNEEB_BIN}"
  old=$(realpath "${1:-$TARNEEB_BIN}") games=${2:-1} ms=${3:-5} max=${4:-1}
  NEW_TARNEEB=${NEW_TARNEEB:-$TARNEEB_BIN}
  out=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-pimc-versions-smoke.XXXXXX")
  trap 'rm -rf "$out"' EXIT
else
  old=$(realpath "$1") games=${2:-4} ms=${3:-50} max=${4:-0} out=${5:-/tmp/tarneeb-pimc-versions}
fi
# OLD_MS: the old build's --ms (default MS), for a scaling curve against a fixed baseline.
old_ms=${OLD_MS:-$ms}
# NEW_FLAGS, OLD_FLAGS: more `bot pimc` flags for each side (default none), e.g. the same build
# on both sides with NEW_FLAGS="--fusion endgame" to measure one flag.
new_flags=${NEW_FLAGS:-} old_flags=${OLD_FLAGS:-}
# SEED: the tournament's seed (default 1; another seed, other deals); PRESETS: the games to
# play (default all four), e.g. PRESETS=400 to look at one game with more deals.
seed=${SEED:-1} presets=${PRESETS:-classic egyptian 400 41}
# NEW_TARNEEB: a copy of the new build to use (so that rebuilding during a run changes nothing).
if [ -n "${NEW_TARNEEB:-}" ]; then
  tarneeb=$(realpath "$NEW_TARNEEB")
else
  cargo build --profile dist --bin tarneeb >&2
  tarneeb=$(realpath target/dist/tarneeb)
fi
mkdir -p "$out"
dirs=()
for preset in $presets; do
  rules="$preset"
  if [ "$max" != 0 ]; then
    rules="$out/$preset.json"
    echo "{\"preset\": \"$preset\", \"max-hands\": $max}" >"$rules"
  fi
  "$tarneeb" tournament --format gauntlet --rules "$rules" --games "$games" --seed "$seed" --public-deals ${JOBS:+--jobs "$JOBS"} \
    --bot "pimc=$tarneeb bot pimc --ms $ms${new_flags:+ $new_flags}" \
    --bot "old=$old bot pimc --ms $old_ms${old_flags:+ $old_flags}" --out "$out/old-$preset" >/dev/null
  dirs+=("$out/old-$preset")
done
python3 bench/strength_table.py "$tarneeb" "${dirs[@]}"
if [ "${SMOKE:-0}" = 1 ]; then echo "smoke run: sizes too small for figures"; fi
