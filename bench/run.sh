#!/usr/bin/env bash
# Referee speed benchmark: microseconds of referee time per decision, against a bare JSON-line
# ping-pong between processes measured in the same run, pinned to one CPU and unpinned.
#
#   bash bench/run.sh
#
# Environment knobs: ROUNDS (default 10), GAMES_PER_ROUND (2), ITERS (ping-pong round trips per
# round, 5000), WARMUP (round trips before those, 1000), TARNEEB_BIN (use this binary instead
# of building target/dist/tarneeb, the dist profile), KEEP=1 (keep the temp dir with records
# and traces), SANDBOX (the games' --sandbox, none: the ping-pongs' bots run unsandboxed too,
# and a bot in bwrap's PID namespace is reaped inside it, so its CPU time would never reach
# the game's rusage; bwrap to see what the sandbox adds to a game's fixed cost).
# SMOKE=1: the same pipeline end to end at tiny sizes (1 round, 1 game, 200 round trips, 100
# warm-up), in seconds, to check it still runs (bench/smoke.sh, CI); its figures mean nothing.
#
# What it does, all in one run:
#  1. builds bench/first_legal_bot.c, bench/pingpong.c and bench/timeit.c with gcc -O2 into a
#     temp dir, and tarneeb in the dist profile (copied there, so a rebuild meanwhile changes
#     nothing);
#  2. plays one traced game to capture real lines (bench/capture.py reads its trace directory,
#     a file per seat): a request of the mean request size, a move event and a trick event,
#     and the batch of the mean batch size (the events held for a seat, then its request:
#     what the referee writes to a bot in one write() per move), and counts the messages one
#     decision costs;
#  3. ROUNDS times, pinned (taskset -c 0: the referee, its threads and the bots, or the
#     ping-pong and its peers, all on CPU 0) then unpinned:
#       - ping-pong: C parent <-> first-legal C bot, request line out, move reply back;
#       - batch ping-pong: the same with the captured batch as the message (same bytes as a
#         referee decision writes): the baseline of the same message size;
#       - batched decision pattern: the batch ping-pong with four bots answering in turn, as
#         in a game with `--events batched` (the default): every process a game has, no referee;
#       - decision pattern: the C ping-pong with four bots, plus the move event to all four
#         after every request and a trick event to all four after every fourth: the messages of
#         one decision with `--events immediate`, with no referee logic;
#       - GAMES_PER_ROUND games of `tarneeb play` with four first-legal C bots (the same seeds
#         pinned and unpinned, so the same games).
#  4. prints (bench/report.py), per measure, the median of the rounds and the best round, and the
#     ratios. On a shared machine the best round is the least disturbed one; the CPU-time rows
#     are the least sensitive to other load. "Steady state" is the time from the first request
#     arriving at a bot to the last reply leaving one (the bots log both), so process start,
#     handshake and stop are left out; "fixed ms per game" is the rest of a game's wall time.
# Rules: classic with contract.dealer-forced-7. With plain classic a first-legal bot always
# passes ("pass" is the first legal call), every hand is redealt and a game is 800 calls with
# no card play; forcing the dealer to bid 7 gives real games (auction, trump, 13 tricks).
#
# A benchmark reports figures; it asserts nothing about time and is not part of `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=${SMOKE:-0}
if [[ $SMOKE == 1 ]]; then
  ROUNDS=${ROUNDS:-1} GAMES_PER_ROUND=${GAMES_PER_ROUND:-1} ITERS=${ITERS:-200} WARMUP=${WARMUP:-100}
fi
ROUNDS=${ROUNDS:-10}
GAMES_PER_ROUND=${GAMES_PER_ROUND:-2}
ITERS=${ITERS:-5000}
WARMUP=${WARMUP:-1000}
SANDBOX=${SANDBOX:-none}

for tool in gcc taskset python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-bench.XXXXXX")
if [[ "${KEEP:-}" == 1 ]]; then
  echo "bench: keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT
fi

echo "== building"
for prog in first_legal_bot pingpong timeit; do
  gcc -O2 -Wall -o "$tmp/$prog" "bench/$prog.c"
done
if [[ -n "${TARNEEB_BIN:-}" ]]; then
  cp "$TARNEEB_BIN" "$tmp/tarneeb"
else
  cargo build --profile dist --quiet --bin tarneeb
  cp target/dist/tarneeb "$tmp/tarneeb"
fi
bot="$tmp/first_legal_bot"
echo '{"preset": "classic", "contract": {"dealer-forced-7": true}}' >"$tmp/rules.json"
# The bots of the games report their CPU time and timestamps to their stderr logs (the
# ping-pong peers do not: their stderr is the terminal). A bot starts with a cleared
# environment (docs/sandbox.md): --sandbox-env passes the variable on.
export FIRST_LEGAL_BOT_CPU=1

# --public-deals: a seed's deals are the same in every run (else drawn with a new secret key).
play=("$tmp/tarneeb" play --rules "$tmp/rules.json" --json --public-deals --sandbox "$SANDBOX"
  --sandbox-env FIRST_LEGAL_BOT_CPU
  --bot "$bot" --bot "$bot" --bot "$bot" --bot "$bot")

echo "== capturing real lines from a traced game (seed 1)"
"${play[@]}" --seed 1 --record "$tmp/trace-game.jsonl" --trace "$tmp/trace" >/dev/null
python3 bench/capture.py "$tmp/trace" "$tmp/lines.txt" "$tmp/batch.txt"

pp() { # pp MODE 1|4|batch|batch4: one ping-pong run, its key=value line appended to pp.MODE.PEERS
  local mode=$1 peers=$2 pre=() extra=(--peers "$2")
  [[ $mode == pinned ]] && pre=(taskset -c 0)
  [[ $peers == batch ]] && extra=(--peers 1 --message "$tmp/batch.txt")
  [[ $peers == batch4 ]] && extra=(--peers 4 --message "$tmp/batch.txt")
  env -u FIRST_LEGAL_BOT_CPU "${pre[@]}" "$tmp/pingpong" "${extra[@]}" --iters "$ITERS" \
    --warmup "$WARMUP" "$tmp/lines.txt" "$bot" >>"$tmp/pp.$mode.$peers"
}

echo "== measuring: $ROUNDS rounds x (ping-pong, decision pattern, $GAMES_PER_ROUND games), pinned and unpinned"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$SECONDS
for ((r = 0; r < ROUNDS; r++)); do
  for mode in pinned unpinned; do
    pre=()
    [[ $mode == pinned ]] && pre=(taskset -c 0)
    mkdir -p "$tmp/games/$mode"
    pp "$mode" 1
    pp "$mode" batch
    pp "$mode" batch4
    pp "$mode" 4
    for ((g = 0; g < GAMES_PER_ROUND; g++)); do
      seed=$((r * GAMES_PER_ROUND + g + 1))
      record="$tmp/games/$mode/r$r-seed$seed.jsonl"
      "$tmp/timeit" "$tmp/games/$mode/times" "${pre[@]}" "${play[@]}" \
        --seed "$seed" --record "$record" >/dev/null
      echo "$r $seed $record" >>"$tmp/games/$mode/index"
    done
  done
  printf '.'
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); measuring took $((SECONDS - start)) s"

python3 bench/report.py "$tmp" "$ROUNDS" "$ITERS"
if [[ $SMOKE == 1 ]]; then echo "smoke run: sizes too small for figures"; fi
