#!/usr/bin/env bash
# Measure a bot against another (the random bot by default) in every preset.
#
#   sample-bots/compare.sh BOT [GAMES] [OPPONENT] [PRESETS...]
#
# For each preset and each seed 1..GAMES it plays two games through `tarneeb play --json`: BOT in
# seats 0 and 2 against OPPONENT in 1 and 3, then the same seed with the seats swapped. So each
# preset plays 2 x GAMES games. Prints one line per preset: games, wins, losses, draws, forfeits
# and BOT's win rate (draws count half). Runs from the repository root; set TARNEEB to use another
# referee binary (default target/release/tarneeb), JOBS for parallel games (default: CPU count).
set -euo pipefail

cd "$(dirname "$0")/.."
BOT=${1:?usage: sample-bots/compare.sh BOT [GAMES] [OPPONENT] [PRESETS...]}
GAMES=${2:-40}
OPP=${3:-python3 sample-bots/python/random_bot.py}
shift $(( $# < 3 ? $# : 3 ))
PRESETS=("$@")
[ ${#PRESETS[@]} -gt 0 ] || PRESETS=(classic egyptian 400 41)
TARNEEB=${TARNEEB:-target/release/tarneeb}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
[ -x "$TARNEEB" ] || cargo build --release --quiet

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

one_game() { # preset seed swapped
    local preset=$1 seed=$2 swap=$3 a b
    if [ "$swap" = 0 ]; then a=$BOT; b=$OPP; else a=$OPP; b=$BOT; fi
    "$TARNEEB" play --rules "$preset" --seed "$seed" --json \
        --record "$OUT/$preset-$seed-$swap.jsonl" \
        --bot "$a" --bot "$b" --bot "$a" --bot "$b" >"$OUT/$preset-$seed-$swap.result" 2>/dev/null \
        || echo '{"error": true}' >"$OUT/$preset-$seed-$swap.result"
}
export -f one_game
export BOT OPP TARNEEB OUT

for preset in "${PRESETS[@]}"; do
    for seed in $(seq 1 "$GAMES"); do
        echo "$preset $seed 0"
        echo "$preset $seed 1"
    done
done | xargs -P "$JOBS" -n 3 bash -c 'one_game "$@"' _

printf '%-10s %6s %5s %6s %6s %9s %9s\n' preset games wins losses draws forfeits "win rate"
for preset in "${PRESETS[@]}"; do
    python3 - "$OUT" "$preset" "$GAMES" <<'EOF'
import json, sys
out, preset, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
w = l = d = f = err = 0
for seed in range(1, games + 1):
    for swap in (0, 1):
        try:
            r = json.load(open("%s/%s-%d-%d.result" % (out, preset, seed, swap)))["result"]
        except Exception:
            err += 1
            continue
        if r.get("reason") == "forfeit":
            f += 1
        mine = swap  # the bot's team: 0 when it sits at 0 and 2, 1 when swapped
        if r.get("winner") is None:
            d += 1
        elif r["winner"] == mine:
            w += 1
        else:
            l += 1
n = w + l + d
rate = (w + d / 2) / n * 100 if n else 0.0
print("%-10s %6d %5d %6d %6d %9d %8.1f%%%s" % (preset, n, w, l, d, f, rate,
      "  (%d games failed to run)" % err if err else ""))
EOF
done
