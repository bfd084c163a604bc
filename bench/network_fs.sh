#!/usr/bin/env bash
# A tournament whose --out is on a network file system (issue 43): sshfs (FUSE over SFTP)
# mounted from an sshd of this script's own, listening on 127.0.0.1 only, with keys made for
# the run. Four runs of the same tournament (GAMES games of sample-bots/c/heuristic_bot.c,
# sandboxed, so each run writes and renames its seal):
#   1. local: --out on the local disk, the reference;
#   2. network: the same run on the mount; its rows must be the reference's;
#   3. killed: on the mount, the referee killed (SIGKILL) once ROWS rows are written, then
#      the same command again, which resumes: its rows must be the reference's;
#   4. cut: on the mount, the connection under it killed once ROWS rows are written (the
#      ssh process of sshfs, so the mount answers "Transport endpoint is not connected"):
#      the referee must stop with an error that names the file, not hang and not exit 0;
#      then the file system is mounted again and the same command resumes: its rows must be
#      the reference's.
# All four share one deal key (`--deal-key`), so they play the same deals.
# Rows are compared without `referee_us_per_move` (a timing). Prints each run's seconds, exit
# code and last line of stderr, and exits 1 at the first check that fails.
#
#   bash bench/network_fs.sh          # GAMES=40 ROWS=10 JOBS=2
#   SMOKE=1 bash bench/network_fs.sh  # bench/smoke.sh's run (CI): GAMES=100 ROWS=6, so that
#                                     # the cut falls well before the run's end under load
#
# Needs sshfs, sshd (openssh-server), ssh-keygen, gcc, bwrap, python3 and /dev/fuse; run as
# root (sshd's privilege separation directory /run/sshd is made if missing). TARNEEB_BIN
# (default: target/release/tarneeb, built here). KEEP=1 keeps the run's directory.
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=${SMOKE:-0}
if [[ $SMOKE == 1 ]]; then GAMES=${GAMES:-100} ROWS=${ROWS:-6}; fi
GAMES=${GAMES:-40}
ROWS=${ROWS:-10}
JOBS=${JOBS:-2}
KEEP=${KEEP:-0}
for c in sshfs /usr/sbin/sshd ssh-keygen gcc bwrap python3 fusermount; do
  command -v "$c" >/dev/null || { echo "network_fs: $c is required" >&2; exit 1; }
done
[[ -e /dev/fuse ]] || { echo "network_fs: /dev/fuse is required" >&2; exit 1; }
if [[ -z ${TARNEEB_BIN:-} ]]; then
  cargo build --release --quiet --bin tarneeb
  TARNEEB_BIN=$PWD/${CARGO_TARGET_DIR:-target}/release/tarneeb
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-netfs.XXXXXX")
mnt=$tmp/mnt
cleanup() {
  fusermount -u -z "$mnt" 2>/dev/null || true
  [[ -f $tmp/sshd.pid ]] && kill "$(cat "$tmp/sshd.pid")" 2>/dev/null || true
  [[ $KEEP == 1 ]] || rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/export" "$mnt" /run/sshd

# The server: loopback only, a port the kernel picked free, keys of this run only.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/user_key"
cp "$tmp/user_key.pub" "$tmp/authorized_keys"
cat > "$tmp/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $tmp/host_key
AuthorizedKeysFile $tmp/authorized_keys
PidFile $tmp/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $(id -un)
Subsystem sftp internal-sftp
EOF
/usr/sbin/sshd -f "$tmp/sshd_config" -E "$tmp/sshd.log"
mount_it() {
  sshfs -p "$port" -o "IdentityFile=$tmp/user_key,StrictHostKeyChecking=no" \
    -o "UserKnownHostsFile=/dev/null,BatchMode=yes,LogLevel=ERROR" \
    "$(id -un)@127.0.0.1:$tmp/export" "$mnt"
}
for _ in 1 2 3 4 5 6 7 8 9 10; do mount_it 2>/dev/null && break; sleep 0.5; done
mountpoint -q "$mnt" || { mount_it; }
echo "mounted: $(grep " $mnt " /proc/mounts | cut -d' ' -f1,3) (sshd on 127.0.0.1:$port)"

gcc -O2 -o "$tmp/bot" sample-bots/c/heuristic_bot.c
echo '{"preset":"classic","max-hands":2}' > "$tmp/rules.json"
# One deal key for the four runs (kept off the mount), so they play the same deals.
"$TARNEEB_BIN" keygen "$tmp/deal.key" > /dev/null 2>&1
run() { # OUT: the tournament into OUT, in the background; its pid in $ref
  "$TARNEEB_BIN" tournament --games $((GAMES / 2)) --jobs "$JOBS" --seed 43 \
    --deal-key "$tmp/deal.key" --rules "$tmp/rules.json" --sandbox bwrap --progress off --out "$1" \
    --bot "a=$tmp/bot" --bot "b=$tmp/bot" > "$tmp/stdout" 2> "$tmp/stderr" &
  ref=$!
}
rows() { # DIR: its rows, by game, without the timing
  python3 - "$1/results.jsonl" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
for r in rows:
    r.pop("referee_us_per_move", None)
print("\n".join(json.dumps(r, sort_keys=True) for r in sorted(rows, key=lambda r: r["game"])))
EOF
}
count() { (wc -l < "$1/results.jsonl") 2>/dev/null || echo 0; }
wait_rows() { # DIR N: until DIR has N rows or the referee ended
  while kill -0 "$ref" 2>/dev/null && (( $(count "$1") < $2 )); do sleep 0.05; done
}
finish() { # NAME DIR: waits for the referee, prints its figures, checks its rows
  local code=0
  wait "$ref" || code=$?
  local secs=$(( $(date +%s%N) / 1000000 - t0 ))
  printf '%-28s %6d ms  exit %d  %s\n' "$1" "$secs" "$code" "$(tail -1 "$tmp/stderr")"
  [[ $code == 0 ]] || { echo "network_fs: $1 failed:"; cat "$tmp/stderr"; exit 1; }
  [[ -z ${2:-} ]] && return
  if [[ $(rows "$2") != "$reference" ]]; then
    echo "network_fs: $1: the rows differ from the local run's" >&2
    diff <(echo "$reference") <(rows "$2") | head -5 >&2
    exit 1
  fi
  "$TARNEEB_BIN" standings "$2" > /dev/null 2> "$tmp/standings.err" || {
    echo "network_fs: $1: standings refused the directory:"; cat "$tmp/standings.err"; exit 1; }
}
now() { t0=$(( $(date +%s%N) / 1000000 )); }

now; run "$tmp/local"; finish "1. local disk"
reference=$(rows "$tmp/local")
now; run "$mnt/network"; finish "2. network" "$mnt/network"

now; run "$mnt/killed"; wait_rows "$mnt/killed" "$ROWS"
kill -9 "$ref"; wait "$ref" || true
echo "3. killed after $(count "$mnt/killed") rows"
now; run "$mnt/killed"; finish "3. resumed" "$mnt/killed"

now; run "$mnt/cut"; wait_rows "$mnt/cut" "$ROWS"
pkill -KILL -f -- "-p $port .*127.0.0.1" || pkill -KILL -f -- "ssh.*$port"
code=0; secs=0
while kill -0 "$ref" 2>/dev/null && (( secs < 120 )); do sleep 1; secs=$((secs + 1)); done
if kill -0 "$ref" 2>/dev/null; then
  echo "network_fs: the referee still runs 120 s after its file system went away" >&2
  kill -9 "$ref"; exit 1
fi
wait "$ref" || code=$?
echo "4. connection cut: exit $code: $(tail -1 "$tmp/stderr")"
[[ $code != 0 ]] || { echo "network_fs: the run ended 0 on a lost file system" >&2; exit 1; }
fusermount -u -z "$mnt"
mount_it
echo "4. mounted again with $(count "$mnt/cut") rows"
now; run "$mnt/cut"; finish "4. resumed" "$mnt/cut"
echo "all four runs have the local run's $GAMES rows"
[[ $SMOKE == 1 ]] && echo "smoke run: $GAMES games, four ways on sshfs over 127.0.0.1, every run's rows the local run's"
exit 0
