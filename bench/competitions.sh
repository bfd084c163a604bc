#!/bin/bash
# The two measurements of issue 13 with the C sample bot and noisy variants of it (a variant
# plays a uniformly random legal move NOISE% of the time):
#   boards   board scoring against game results: pairs an SPRT needs, by resampling the pairs of
#            one long gauntlet (examples/board_savings.rs)
#   swiss    how many rounds a Swiss of 16 entrants needs to rank them as a round robin does
#            (Spearman rank correlation of the fitted ratings)
# Usage: bench/competitions.sh boards|swiss [WORKDIR]
#        (after cargo build --profile dist --bin tarneeb --examples; TARNEEB_BIN=path and
#        TARNEEB_EXAMPLES=dir pick other builds of the referee and of board_savings)
#        SWISS_RUNS=20 (Swiss tournaments per row, seeds 11, 12, ...)
# Tournaments already in WORKDIR are reused.
# SMOKE=1: both measurements (or the one named) at tiny sizes, in seconds, to check they still
# run (bench/smoke.sh, CI): one-hand games, 4 gauntlet games and 20 resampling runs for boards,
# 4 entrants, 2 rounds and one Swiss for swiss, in a temp WORKDIR that is removed after; its
# figures mean nothing.
set -euo pipefail
shopt -s inherit_errexit # a failing gcc inside $(noisy N) stops the run
smoke=${SMOKE:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
tarneeb=$(realpath "${TARNEEB_BIN:-$root/target/dist/tarneeb}")
examples=$(realpath "${TARNEEB_EXAMPLES:-$root/target/dist/examples}")
for f in "$tarneeb" "$examples/board_savings"; do
  [ -x "$f" ] || { echo "competitions: no $f (cargo build --profile dist --bin tarneeb --examples)" >&2; exit 1; }
done
rules=()
if [ "$smoke" = 1 ]; then
  what=${1:-both}
  work=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-competitions-smoke.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  echo '{"preset": "classic", "max-hands": 1}' >"$work/smoke.json"
  rules=(--rules "$work/smoke.json")
  board_games=4 board_runs=20 entrants=4 swiss_rounds=2 runs=${SWISS_RUNS:-1}
else
  what=${1:?boards or swiss}
  work=${2:-/tmp/tarneeb-competitions}
  board_games=600 board_runs=2000 entrants=16 swiss_rounds=8 runs=${SWISS_RUNS:-20}
fi
mkdir -p "$work"

# The C bot, and a variant with NOISE% random moves (seeded by its pid).
noisy() {
  local n=$1 out="$work/cbot_n$1"
  [ -x "$out" ] && { echo "$out"; return; }
  sed -e 's|    return m \&\& is_legal(m) ? m : legal\[0\];|    if (rand() % 100 < NOISE) return legal[rand() % nlegal];\n    return m \&\& is_legal(m) ? m : legal[0];|' \
      -e 's|^int main(void) {|int main(void) {\n    srand((unsigned)getpid());|' \
      "$root/sample-bots/c/heuristic_bot.c" > "$work/noisy.c"
  # Both edits must have taken: a C bot rewritten since would give variants without noise.
  if [ "$(grep -c -e 'NOISE' -e 'srand((unsigned)getpid())' "$work/noisy.c")" != 2 ]; then
    echo "competitions: sample-bots/c/heuristic_bot.c changed: the noise patch no longer applies" >&2
    exit 1
  fi
  gcc -O2 -DNOISE="$n" -include stdlib.h -include unistd.h -o "$out" "$work/noisy.c"
  echo "$out"
}

boards() {
  for n in 1 5; do
    dir="$work/boards-n$n"
    c=$(noisy 0) cn=$(noisy "$n")
    [ -f "$dir/standings.txt" ] || "$tarneeb" tournament --out "$dir" --format gauntlet \
      --games "$board_games" --seed 41 --public-deals --jobs 2 "${rules[@]}" --bot c="$c" --bot n$n="$cn" > /dev/null
    "$examples/board_savings" "$dir" 0 10 "$board_runs"
  done
}

swiss() {
  bots=()
  for i in $(seq 0 $((entrants - 1))); do bots+=(--bot "n$((2 * i))=$(noisy $((2 * i)))"); done
  for seed in 1 2; do
    dir="$work/rr-$seed"
    [ -f "$dir/standings.txt" ] || "$tarneeb" tournament --out "$dir" --games 2 --seed "$seed" \
      --public-deals --jobs 2 "${rules[@]}" "${bots[@]}" > /dev/null
  done
  seeds=$(seq 11 $((10 + runs)))
  for seed in $seeds; do
    dir="$work/swiss-$seed"
    [ -f "$dir/standings.txt" ] || "$tarneeb" tournament --out "$dir" --format swiss \
      --rounds "$swiss_rounds" --games 2 --seed "$seed" --public-deals --jobs 2 "${rules[@]}" "${bots[@]}" > /dev/null
  done
  python3 - "$work" "$tarneeb" "$entrants" "$swiss_rounds" $seeds <<'PY'
import json, os, subprocess, sys
work, tarneeb = sys.argv[1], sys.argv[2]
entrants, swiss_rounds = int(sys.argv[3]), int(sys.argv[4])
seeds = [int(s) for s in sys.argv[5:]]
def ranks(dir):
    # --trust-rows: the prefix directories below are ours and have no game records to check
    # unsealed rows against (without it standings refused them: exit 2).
    v = json.loads(subprocess.run([tarneeb, "standings", "--trust-rows", "--json", dir], check=True,
                                  capture_output=True, text=True).stdout)
    return {e["name"]: i for i, e in enumerate(v["entrants"])}
def spearman(a, b):
    n = len(a)
    return 1 - 6 * sum((a[k] - b[k]) ** 2 for k in a) / (n * (n * n - 1))
def prefix(src, games, dst):
    os.makedirs(dst, exist_ok=True)
    open(os.path.join(dst, "tournament.json"), "w").write("{}\n")
    with open(os.path.join(src, "results.jsonl")) as f, open(os.path.join(dst, "results.jsonl"), "w") as g:
        for line in f:
            if json.loads(line)["game"] < games:
                g.write(line)
truth = {f"n{2 * i}": i for i in range(entrants)}  # fewer random moves ranks higher
rr = [ranks(os.path.join(work, f"rr-{s}")) for s in (1, 2)]
# a round robin: every pair of entrants, 2 deal sets each played twice (duplicate)
print(f"round robin, {entrants * (entrants - 1) // 2 * 4} games: vs the noise order "
      f"{[round(spearman(r, truth), 3) for r in rr]}, vs each other {spearman(rr[0], rr[1]):.3f}")
for rounds in range(1, swiss_rounds + 1):
    games = rounds * entrants // 2 * 4
    rows = []
    for s in seeds:
        d = os.path.join(work, f"swiss-{s}-r{rounds}")
        prefix(os.path.join(work, f"swiss-{s}"), games, d)
        r = ranks(d)
        rows.append((spearman(r, truth), sum(spearman(r, x) for x in rr) / len(rr)))
    t = sum(x[0] for x in rows) / len(rows)
    v = sum(x[1] for x in rows) / len(rows)
    print(f"swiss {rounds} rounds, {games} games: vs the noise order {t:.3f}, vs the round robins {v:.3f}")
PY
}

case $what in
boards) boards ;;
swiss) swiss ;;
both)
  echo "== boards"
  boards
  echo "== swiss"
  swiss
  ;;
*)
  echo "competitions: boards or swiss, not $what" >&2
  exit 2
  ;;
esac
if [ "$smoke" = 1 ]; then echo "smoke run: sizes too small for figures"; fi
