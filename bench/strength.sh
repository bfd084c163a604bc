#!/usr/bin/env bash
# The pimc bot's strength: duplicate gauntlets against a heuristic sample bot in each game,
# then each entrant's double-dummy tricks lost per hand over the same games.
#
#   bash bench/strength.sh OPPONENT_NAME "OPPONENT COMMAND" [GAMES] [MS] [OUT]
#
# e.g. bash bench/strength.sh c "$PWD/heuristic_bot" 6 100
# (build the C bot with gcc -O2 -o heuristic_bot sample-bots/c/heuristic_bot.c, the Rust one
# with cargo build --release --manifest-path sample-bots/rust/Cargo.toml). Win rate and Elo with
# their 95% intervals are in OUT/PRESET/standings.txt; tricks lost are printed per preset.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 cmd=$2 games=${3:-6} ms=${4:-100} out=${5:-/tmp/tarneeb-strength}
tarneeb=target/release/tarneeb
[ -x "$tarneeb" ] || cargo build --release
for preset in classic egyptian 400 41; do
  dir="$out/$name-$preset"
  "$tarneeb" tournament --format gauntlet --rules "$preset" --games "$games" --seed 1 \
    --bot "pimc=$PWD/$tarneeb bot pimc --ms $ms" --bot "$name=$cmd" --out "$dir" >/dev/null
  echo "== $preset: pimc --ms $ms against $name, $games deal sets played twice"
  sed -n '1,4p' "$dir/standings.txt"
  python3 - "$dir" "$tarneeb" <<'PY'
import json, subprocess, sys, collections
d, tarneeb = sys.argv[1], sys.argv[2]
lost, hands = collections.Counter(), collections.Counter()
for line in open(f"{d}/results.jsonl"):
    r = json.loads(line)
    a = json.loads(subprocess.run([tarneeb, "replay", f"{d}/{r['record']}", "--analyze", "--json"],
                                  check=True, capture_output=True).stdout)["analysis"]
    for seat, acc in enumerate(a["seats"]):
        lost[r["seats"][seat]] += acc["tricks_lost"]
        hands[r["seats"][seat]] += len(a["hands"])
for who in sorted(lost):
    print(f"  {who}: {lost[who] / max(hands[who], 1):.2f} tricks lost per seat per hand played out (double-dummy)")
PY
done
