#!/usr/bin/env bash
# Smoke run of every benchmark: each top-level script of bench/ in its SMOKE=1 mode (tiny sizes,
# the same pipeline end to end: building its C helpers, playing, parsing, reporting), one after
# another, so that a change of the referee that breaks a benchmark shows in CI and not months
# later when someone next measures. It checks that each script exits 0 and prints its report
# (its closing "smoke run: ..." line); it asserts nothing about time, and the figures it makes
# mean nothing.
#
#   TARNEEB_BIN=target/release/tarneeb TARNEEB_EXAMPLES=target/release/examples bash bench/smoke.sh [SCRIPT...]
#
# TARNEEB_BIN (required): an already-built referee; nothing here builds it again (a script
# without it would build the dist profile). TARNEEB_EXAMPLES: the directory holding the
# examples dd_bench and board_savings built with it (cargo build --release --examples; default
# the examples/ beside TARNEEB_BIN). SCRIPTs: run only these (e.g. run.sh remote.sh).
# Scripts may build the Rust sample bot (sample-bots/rust, small). Needs what the scripts need:
# gcc, python3, bwrap, taskset, perf, openssl, bc; a missing tool fails its script by name.
# Prints a line per script (name, seconds, ok or FAILED), runs them all, then the end of each
# failed script's output, the total time, and exits 1 if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${TARNEEB_BIN:?smoke: set TARNEEB_BIN to an already-built tarneeb (e.g. target/release/tarneeb)}"
TARNEEB_BIN=$(realpath "$TARNEEB_BIN")
TARNEEB_EXAMPLES=$(realpath "${TARNEEB_EXAMPLES:-$(dirname "$TARNEEB_BIN")/examples}")
for f in "$TARNEEB_BIN" "$TARNEEB_EXAMPLES/dd_bench" "$TARNEEB_EXAMPLES/board_savings"; do
  [ -x "$f" ] || { echo "smoke: no $f (cargo build --release --bin tarneeb --examples)" >&2; exit 1; }
done
# Both names: some scripts take TARNEEB (analysis, first_lead, strength), the others TARNEEB_BIN.
export SMOKE=1 TARNEEB_BIN TARNEEB="$TARNEEB_BIN" TARNEEB_EXAMPLES

scripts=(analysis.sh competitions.sh first_lead.sh league.sh pimc_deals.sh pimc_versions.sh remote.sh run.sh
  soak.sh strength.sh tournament.sh fixed_cost.py runner_rss.py sandbox_cost.py sprt_reference.py
  standings_rows.py)
# Called by the scripts above, so smoked through them.
helpers=(capture.py report.py pimc_deals.py strength_table.py smoke.sh)
# Smoked only where the kernel has FUSE (/dev/fuse): network_fs.sh mounts sshfs. .ci/setup
# installs sshfs and sshd; a machine without /dev/fuse says so in the table, on CI too (FUSE
# is the kernel's, not a package .ci/setup can install).
needs_fuse=(network_fs.sh)

# A new script in bench/ must join one list or the other: a benchmark nothing runs is how they rot.
for f in bench/*.sh bench/*.py; do
  name=${f#bench/}
  if [[ " ${scripts[*]} ${helpers[*]} ${needs_fuse[*]} " != *" $name "* ]]; then
    echo "smoke: bench/$name is neither smoked nor a helper: give it a SMOKE=1 mode and add it here" >&2
    exit 1
  fi
done
not_run=()
if [[ -c /dev/fuse ]]; then scripts+=("${needs_fuse[@]}"); else not_run+=("${needs_fuse[@]}"); fi
if (($#)); then scripts=("$@"); not_run=(); fi

logs=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-smoke.XXXXXX")
trap 'rm -rf "$logs"' EXIT
# secs T0 T1: the seconds between two $EPOCHREALTIME readings, one decimal
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
failed=()
start=$EPOCHREALTIME
for name in "${scripts[@]}"; do
  [ -f "bench/$name" ] || { echo "smoke: no bench/$name" >&2; exit 2; }
  case $name in
  *.sh) cmd=(bash "bench/$name") ;;
  *.py) cmd=(python3 "bench/$name") ;;
  esac
  log="$logs/$name.log"
  t0=$EPOCHREALTIME
  # A hung script (a relay waiting for ever, say) fails after 5 minutes instead of holding CI.
  status=ok
  timeout 300 "${cmd[@]}" </dev/null >"$log" 2>&1 || status="FAILED (exit $?)"
  t1=$EPOCHREALTIME
  if [[ $status == ok ]] && ! grep -q '^smoke run: ' "$log"; then
    status="FAILED (exit 0 but no 'smoke run:' line: the report was not printed)"
  fi
  [[ $status == ok ]] || failed+=("$name")
  printf '%-20s %6s s  %s\n' "$name" "$(secs "$t0" "$t1")" "$status"
done
total=$(secs "$start" "$EPOCHREALTIME")
for name in "${not_run[@]}"; do
  printf '%-20s %6s    NOT RUN: this machine has no /dev/fuse\n' "$name" -
done

for name in "${failed[@]}"; do
  printf '\n== %s FAILED; the end of its output:\n' "$name"
  tail -n 40 "$logs/$name.log"
done
echo
echo "smoke: ${#scripts[@]} scripts in $total s"
echo "smoke: $((${#scripts[@]} - ${#failed[@]})) passed, ${#failed[@]} failed, ${#not_run[@]} not run"
((${#failed[@]} == 0))
