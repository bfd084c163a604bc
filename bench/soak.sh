#!/usr/bin/env bash
# A soak (issue 43): one tournament of GAMES games of the first-legal native bot
# (bench/first_legal_bot.c, a fresh process per game: it does not declare multi_game), with
# the referee's resident memory (VmRSS), its open descriptors and the bot processes alive
# sampled every SAMPLE seconds, and the bot processes left once it ends. Prints the samples as
# CSV and a summary; asserts nothing about time.
#
#   GAMES=100000 nice -n 19 bash bench/soak.sh
#
# Knobs: GAMES (10000; even: duplicate pairs), JOBS (2), HANDS (1: each game's hand cap, so
# the games are short and the run is about the referee's per-game cost, not the play),
# SAMPLE (10 s), MULTI (1: the bot declares multi_game, so the tournament's pool keeps its
# processes between games, up to protocol.md 4.4's 1000 games each; the run then measures the
# referee's own per-game cost, with a process started every 1000 games), SANDBOX (bwrap; none to leave the sandbox out), TARNEEB_BIN (default:
# target/release/tarneeb, built here), KEEP (1 to keep the run's directory). Needs gcc and pgrep.
# Records are written compressed (--compress), about 0.6 KB a game.
# SMOKE=1: 20 games sampled every second, in seconds (bench/smoke.sh, CI); its figures mean
# nothing. Exits 1 when the referee failed or left a bot process behind.
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=${SMOKE:-0}
if [[ $SMOKE == 1 ]]; then
  GAMES=${GAMES:-20} SAMPLE=${SAMPLE:-1}
fi
GAMES=${GAMES:-10000}
JOBS=${JOBS:-2}
HANDS=${HANDS:-1}
SAMPLE=${SAMPLE:-10}
SANDBOX=${SANDBOX:-bwrap}
KEEP=${KEEP:-0}
MULTI=${MULTI:-0}

command -v gcc >/dev/null || { echo "soak: gcc is required" >&2; exit 1; }
if [[ -z ${TARNEEB_BIN:-} ]]; then
  cargo build --release --quiet --bin tarneeb
  TARNEEB_BIN=${CARGO_TARGET_DIR:-target}/release/tarneeb
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-soak.XXXXXX")
[[ $KEEP == 1 ]] || trap 'rm -rf "$tmp"' EXIT
# The bot's path holds the run's own directory, so its processes are told from anyone else's.
bot=$tmp/first_legal_soak_bot
gcc -O2 -o "$bot" bench/first_legal_bot.c
echo "{\"preset\":\"classic\",\"max-hands\":$HANDS}" > "$tmp/rules.json"

bots_alive() {
  # The bot processes themselves (not the referee or bwrap, whose command lines name them).
  pgrep -fc -- "^$bot" || true
}

[[ $MULTI == 1 ]] && export FIRST_LEGAL_BOT_MULTI=1
start=$(date +%s)
"$TARNEEB_BIN" tournament --games $((GAMES / 2)) --jobs "$JOBS" --seed 43 \
  --rules "$tmp/rules.json" --sandbox "$SANDBOX" --compress --progress off \
  --out "$tmp/run" --bot "a=$bot" --bot "b=$bot" > "$tmp/stdout" 2> "$tmp/stderr" &
ref=$!
echo "seconds,games,rss_kb,fds,bots_alive,zombie_children"
while kill -0 "$ref" 2>/dev/null; do
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$ref/status" 2>/dev/null || echo 0)
  fds=$(ls "/proc/$ref/fd" 2>/dev/null | wc -l)
  games=$( (wc -l < "$tmp/run/results.jsonl") 2>/dev/null || echo 0)
  zombies=$(ps --ppid "$ref" -o stat= 2>/dev/null | grep -c Z || true)
  echo "$(( $(date +%s) - start )),$games,${rss:-0},$fds,$(bots_alive),$zombies"
  sleep "$SAMPLE"
done
wait "$ref" && code=0 || code=$?
end=$(date +%s)
sleep 1
echo
echo "exit code: $code"
echo "games played: $(wc -l < "$tmp/run/results.jsonl") of $GAMES in $((end - start)) s"
echo "forfeits: $(grep -vc '"forfeit_seat":null' "$tmp/run/results.jsonl" || true)"
left=$(bots_alive)
echo "bot processes left after the referee ended: $left"
[[ $code == 0 ]] || { echo "stderr:"; tail -5 "$tmp/stderr"; }
if [[ $SMOKE == 1 ]]; then echo "smoke run: sizes too small for figures"; fi
[[ $code == 0 && $left == 0 ]]
