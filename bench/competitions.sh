#!/bin/bash
# The two measurements of issue 13 with the C sample bot and noisy variants of it (a variant
# plays a uniformly random legal move NOISE% of the time):
#   boards   board scoring against game results: pairs an SPRT needs, by resampling the pairs of
#            one long gauntlet (examples/board_savings.rs)
#   swiss    how many rounds a Swiss of 16 entrants needs to rank them as a round robin does
#            (Spearman rank correlation of the fitted ratings)
# Usage: bench/competitions.sh boards|swiss [WORKDIR]   (after cargo build --release --examples)
#        SWISS_RUNS=20 (Swiss tournaments per row, seeds 11, 12, ...)
set -euo pipefail
what=${1:?boards or swiss}
work=${2:-/tmp/tarneeb-competitions}
mkdir -p "$work"
root=$(cd "$(dirname "$0")/.." && pwd)
tarneeb="$root/target/release/tarneeb"

# The C bot, and a variant with NOISE% random moves (seeded by its pid).
noisy() {
  local n=$1 out="$work/cbot_n$1"
  [ -x "$out" ] && { echo "$out"; return; }
  sed -e 's|    return m \&\& is_legal(m) ? m : legal\[0\];|    if (rand() % 100 < NOISE) return legal[rand() % nlegal];\n    return m \&\& is_legal(m) ? m : legal[0];|' \
      -e 's|^int main(void) {|int main(void) {\n    srand((unsigned)getpid());|' \
      "$root/sample-bots/c/heuristic_bot.c" > "$work/noisy.c"
  gcc -O2 -DNOISE="$n" -include stdlib.h -include unistd.h -o "$out" "$work/noisy.c"
  echo "$out"
}

case $what in
boards)
  for n in 1 5; do
    dir="$work/boards-n$n"
    [ -f "$dir/standings.txt" ] || "$tarneeb" tournament --out "$dir" --format gauntlet \
      --games 600 --seed 41 --public-deals --jobs 2 --bot c="$(noisy 0)" --bot n$n="$(noisy "$n")" > /dev/null
    "$root/target/release/examples/board_savings" "$dir" 0 10 2000
  done
  ;;
swiss)
  bots=()
  for i in $(seq 0 15); do bots+=(--bot "n$((2 * i))=$(noisy $((2 * i)))"); done
  for seed in 1 2; do
    dir="$work/rr-$seed"
    [ -f "$dir/standings.txt" ] || "$tarneeb" tournament --out "$dir" --games 2 --seed "$seed" \
      --public-deals --jobs 2 "${bots[@]}" > /dev/null
  done
  runs=${SWISS_RUNS:-20}
  seeds=$(seq 11 $((10 + runs)))
  for seed in $seeds; do
    dir="$work/swiss-$seed"
    [ -f "$dir/standings.txt" ] || "$tarneeb" tournament --out "$dir" --format swiss \
      --rounds 8 --games 2 --seed "$seed" --public-deals --jobs 2 "${bots[@]}" > /dev/null
  done
  python3 - "$work" "$tarneeb" $seeds <<'EOF'
import json, os, subprocess, sys
work, tarneeb = sys.argv[1], sys.argv[2]
seeds = [int(s) for s in sys.argv[3:]]
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
truth = {f"n{2 * i}": i for i in range(16)}  # fewer random moves ranks higher
rr = [ranks(os.path.join(work, f"rr-{s}")) for s in (1, 2)]
print(f"round robin, 480 games: vs the noise order {[round(spearman(r, truth), 3) for r in rr]}, "
      f"vs each other {spearman(rr[0], rr[1]):.3f}")
for rounds in range(1, 9):
    games = rounds * 8 * 4
    rows = []
    for s in seeds:
        d = os.path.join(work, f"swiss-{s}-r{rounds}")
        prefix(os.path.join(work, f"swiss-{s}"), games, d)
        r = ranks(d)
        rows.append((spearman(r, truth), sum(spearman(r, x) for x in rr) / len(rr)))
    t = sum(x[0] for x in rows) / len(rows)
    v = sum(x[1] for x in rows) / len(rows)
    print(f"swiss {rounds} rounds, {games} games: vs the noise order {t:.3f}, vs the round robins {v:.3f}")
EOF
  ;;
esac
