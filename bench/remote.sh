#!/usr/bin/env bash
# Remote entrants' speed (issue 25): the same round robin of two C heuristic sample bots played
# locally (pipes), remotely over loopback plain TCP, and remotely over loopback TLS, alternating
# in one run on the same machine, so each remote figure is a ratio against the local baseline
# of the same run:
#
#   bash bench/remote.sh
#
# Each tournament: entrants c1 and c2 (both sample-bots/c/heuristic_bot.c, gcc -O2), --games
# GAMES with --no-duplicate (duplicate deals need --remote-duplicate with remote entrants), the
# same --seed and --deal-key in every mode (so the same deals), --jobs JOBS. Remote: both
# entrants are `NAME=remote`, and one `tarneeb connect --connections 2*JOBS` relay per entrant
# runs the C bot (the relay's and the bots' CPU is on this machine too, as on a contest server
# where the participants sit next to the organiser; on a real network only the referee's side
# is the organiser's).
#
# Printed per mode (median over ROUNDS rounds):
#   us/move   the tournament rows' `referee_us_per_move` (results.jsonl), averaged over the
#             games of a round: the wall time of a game's hands after the first minus the
#             bots' recorded reply times (whole milliseconds, rounded down), per move. For a
#             remote seat the reply time is measured at the referee, so it includes the
#             network and the relay; with the fast C bot nearly every reply rounds down to
#             0 ms, so us/move is close to the whole wall time of a move: the referee, the
#             transport (pipe, socket, or socket + TLS bridge thread), the relay and the bot.
#   games/s   games / wall time of the `tarneeb tournament` command (remote: from its start,
#             relays included, to its exit).
#   ratio     of each against the local mode of the same run (us/move: remote / local; the
#             issue's aim is a remote move costing the referee no more than 1.5x a local one).
#
# Knobs: ROUNDS (3), GAMES (300), JOBS (2), SANDBOX for the local mode (none: the relays run
# bots unsandboxed, so the baseline does too; bwrap to compare with a sandboxed local field),
# TARNEEB_BIN (else target/dist/tarneeb is built, the dist profile), KEEP=1 (keep the temp dir).
# SMOKE=1: the same pipeline at tiny sizes, in seconds, to check it still runs (bench/smoke.sh,
# CI): ROUNDS 1, GAMES 4 (the knobs still win if given); its figures mean nothing.
# Needs gcc, openssl (a self-signed certificate for 127.0.0.1) and python3. Loopback only.
# A benchmark reports figures; it asserts nothing about time and is not part of `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=${SMOKE:-0}
if [[ $SMOKE == 1 ]]; then
  ROUNDS=${ROUNDS:-1} GAMES=${GAMES:-4}
fi
ROUNDS=${ROUNDS:-3}
GAMES=${GAMES:-300}
JOBS=${JOBS:-2}
SANDBOX=${SANDBOX:-none}

for tool in gcc openssl python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-rbench.XXXXXX")
relays=()
cleanup() {
  for pid in "${relays[@]}"; do kill "$pid" 2>/dev/null || true; done
  [[ "${KEEP:-}" == 1 ]] && echo "bench: kept $tmp" || rm -rf "$tmp"
}
trap cleanup EXIT

if [[ -z "${TARNEEB_BIN:-}" ]]; then
  cargo build --profile dist --quiet --bin tarneeb
  TARNEEB_BIN=target/dist/tarneeb
fi
cp "$TARNEEB_BIN" "$tmp/tarneeb"
gcc -O2 -o "$tmp/c_bot" sample-bots/c/heuristic_bot.c
"$tmp/tarneeb" keygen "$tmp/deal.key" > /dev/null 2>&1
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \
  -addext subjectAltName=IP:127.0.0.1,DNS:localhost -addext basicConstraints=critical,CA:FALSE \
  -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 2> /dev/null

common=(--no-duplicate --games "$GAMES" --seed 7 --deal-key "$tmp/deal.key" --jobs "$JOBS")

# wait_for FILE PATTERN: the first line of FILE holding PATTERN, once it is there.
wait_for() {
  local i
  for ((i = 0; i < 3000; i++)); do
    if grep -q -- "$2" "$1" 2> /dev/null; then
      grep -m1 -- "$2" "$1"
      return
    fi
    sleep 0.01
  done
  echo "bench: no '$2' in $1:" >&2
  cat "$1" >&2
  exit 1
}

# cpu PID: the CPU time (user + system, all its threads) of process PID so far, in clock ticks
cpu() { awk '{print $14 + $15}' "/proc/$1/stat" 2> /dev/null; }

# run MODE: one tournament; prints "games seconds wall_us_per_move cpu_us_per_move"
run() {
  local mode=$1 out="$tmp/$1-$RANDOM" t0 t1 pid ticks=0 t r
  local -a bots remote=() tls=() ca=() left
  if [[ $mode == local ]]; then
    bots=(--sandbox "$SANDBOX" --bot "c1=$tmp/c_bot" --bot "c2=$tmp/c_bot")
  else
    bots=(--listen 127.0.0.1:0 --bot c1=remote --bot c2=remote)
    if [[ $mode == tls ]]; then
      tls=(--tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem")
      ca=(--ca "$tmp/cert.pem")
    fi
  fi
  t0=$(date +%s.%N)
  "$tmp/tarneeb" tournament --out "$out" "${common[@]}" "${bots[@]}" "${tls[@]}" \
    > /dev/null 2> "$tmp/server.err" &
  pid=$!
  if [[ $mode != local ]]; then
    local addr token name
    addr=$(wait_for "$tmp/server.err" "listening on " | sed 's/.*listening on \([^ ]*\).*/\1/')
    for name in c1 c2; do
      token=$(wait_for "$tmp/server.err" "token for $name: " | awk '{print $4}')
      "$tmp/tarneeb" connect "$addr" --token "$token" --connections $((2 * JOBS)) "${ca[@]}" \
        -- "$tmp/c_bot" 2> "$tmp/relay-$name.err" &
      remote+=($!)
    done
  fi
  # Until the tournament exits: its CPU time (the last reading, up to 50 ms before the exit;
  # /proc/PID/stat counts all its threads, not its children, so not local bots). A relay that
  # gives up (exit 2: a refusal, a certificate it does not trust) would leave the server
  # waiting for connections for ever: the run stops and says why.
  while t=$(cpu "$pid") && [[ -n $t ]]; do
    ticks=$t
    left=()
    for r in "${remote[@]}"; do
      if kill -0 "$r" 2> /dev/null; then
        left+=("$r")
      elif ! wait "$r"; then
        kill "$pid"
        echo "bench: a relay gave up in the $mode mode:" >&2
        cat "$tmp"/relay-*.err >&2
        exit 1
      fi
    done
    remote=("${left[@]}")
    sleep 0.05
  done
  if ! wait "$pid"; then
    echo "bench: the $mode tournament failed:" >&2
    cat "$tmp/server.err" >&2
    for r in "${remote[@]}"; do kill "$r" 2> /dev/null || true; done
    exit 1
  fi
  t1=$(date +%s.%N)
  for r in "${remote[@]}"; do wait "$r" || true; done
  python3 - "$out" "$t0" "$t1" "$ticks" "$(getconf CLK_TCK)" <<'EOF'
import glob, json, os, sys
out, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
ticks, hz = int(sys.argv[4]), int(sys.argv[5])
rows = [json.loads(l) for l in open(os.path.join(out, "results.jsonl"))]
faults = [r for r in rows if r.get("forfeit_kind")]
if faults:
    sys.exit(f"bench: {len(faults)} games ended in a fault, e.g. {faults[0]}")
us = [r["referee_us_per_move"] for r in rows if r.get("referee_us_per_move") is not None]
moves = sum(open(g).read().count('"type":"move"')
            for g in glob.glob(os.path.join(out, "games", "*.jsonl")))
print(len(rows), t1 - t0, sum(us) / len(us), ticks / hz * 1e6 / moves)
EOF
  rm -rf "$out"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A rows
modes=(local tcp tls)
echo "== $GAMES-game round robin of two C heuristic bots, --jobs $JOBS, $ROUNDS rounds" \
  "(local sandbox: $SANDBOX); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < ROUNDS; i++)); do
  for mode in "${modes[@]}"; do
    read -r games secs us cus < <(run "$mode")
    rows[$mode]+="$games $secs $us $cus"$'\n'
    printf '  round %d %-5s %5d games %7.2f s %8.1f us/move %8.1f CPU us/move\n' "$((i + 1))" \
      "$mode" "$games" "$secs" "$us" "$cus"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

gps() { printf '%s' "${rows[$1]}" | awk 'NF == 4 {print $1 / $2}' | median; }
usm() { printf '%s' "${rows[$1]}" | awk 'NF == 4 {print $3}' | median; }
cpu_usm() { printf '%s' "${rows[$1]}" | awk 'NF == 4 {print $4}' | median; }

# ratio A B: A / B, or nan when B is 0 (a local run shorter than one CPU reading: no CPU time)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "nan"; else print a / b }'; }

echo
printf '%-8s %12s %6s %14s %6s %10s %6s\n' mode wall-us/move ratio referee-CPU-us ratio games/s ratio
lu=$(usm local); lc=$(cpu_usm local); lg=$(gps local)
for mode in "${modes[@]}"; do
  u=$(usm "$mode"); c=$(cpu_usm "$mode"); g=$(gps "$mode")
  printf '%-8s %12.1f %6.2f %14.1f %6.2f %10.1f %6.2f\n' "$mode" "$u" "$(ratio "$u" "$lu")" \
    "$c" "$(ratio "$c" "$lc")" "$g" "$(ratio "$g" "$lg")"
done
if [[ $SMOKE == 1 ]]; then echo "smoke run: sizes too small for figures"; fi
