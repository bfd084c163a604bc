#!/usr/bin/env python3
"""Peak memory (VmHWM) of the tournament runner against the length of its schedule.

usage: python3 bench/runner_rss.py [SECONDS]     (SECONDS per run, default 15)

For 1,000, 100,000 and 10,000,000 scheduled games (a round robin of the C and Rust sample
bots, duplicate: --games N/2 deal sets), starts `tarneeb tournament`, lets it play for SECONDS
(or to its end), reads the runner's VmHWM from /proc while it runs, stops it with SIGINT (as a
user would; the run is resumable) and prints one line per schedule length. Then, for each, it
resumes the tournament for SECONDS more, so the figure includes reading the earlier rows back.
The bots are separate processes and not counted. Knobs (environment): TARNEEB_BIN (default:
target/dist/tarneeb, cargo build --profile dist), JOBS (2), SANDBOX (auto).
SMOKE=1: the same pipeline at a tiny size, in seconds, to check it still runs (bench/smoke.sh,
CI): SECONDS defaults to 0.5; its figures mean nothing.
A benchmark reports figures; it asserts nothing and is not part of `cargo test`. It stops with
an error when a tournament fails (any exit but 0, or 130 after its SIGINT).
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMOKE = os.environ.get("SMOKE") == "1"


def hwm_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def run(tarneeb, out, games, bots, seconds):
    """Runs one tournament for `seconds`; returns (peak kB, rows in results.jsonl)."""
    cmd = [tarneeb, "tournament", "--out", out, "--games", str(games // 2), "--seed", "7",
           "--jobs", os.environ.get("JOBS", "2"), "--sandbox", os.environ.get("SANDBOX", "auto")]
    for name, path in bots:
        cmd += ["--bot", f"{name}={path}"]
    err = open(out + ".stderr", "w+")
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
    peak, end = 0, time.monotonic() + seconds
    while p.poll() is None and time.monotonic() < end:
        peak = max(peak, hwm_kb(p.pid) or 0)
        time.sleep(0.1)
    ok = (0,)
    if p.poll() is None:
        peak = max(peak, hwm_kb(p.pid) or 0)
        p.send_signal(signal.SIGINT)
        p.wait()
        ok = (0, 130)  # 130: interrupted, the rows so far kept
    if p.returncode not in ok:
        err.seek(0)
        sys.exit(f"runner_rss: {' '.join(cmd)} exited with {p.returncode}:\n{err.read()}")
    if peak == 0:
        sys.exit(f"runner_rss: no VmHWM read from /proc/{p.pid}/status while it ran")
    try:
        with open(os.path.join(out, "results.jsonl")) as f:
            rows = sum(1 for _ in f)
    except OSError:
        rows = 0
    return peak, rows


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5 if SMOKE else 15.0
    tarneeb = os.environ.get("TARNEEB_BIN")
    if not tarneeb:
        subprocess.run(["cargo", "build", "--profile", "dist", "--quiet", "--bin", "tarneeb"],
                       cwd=ROOT, check=True)
        tarneeb = os.path.join(ROOT, "target/dist/tarneeb")
    tmp = tempfile.mkdtemp(prefix="tarneeb-rss.")
    try:
        c_bot = os.path.join(tmp, "c_bot")
        subprocess.run(["gcc", "-O2", "-o", c_bot,
                        os.path.join(ROOT, "sample-bots/c/heuristic_bot.c")], check=True)
        subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path",
                        os.path.join(ROOT, "sample-bots/rust/Cargo.toml")], check=True)
        rust_bot = os.path.join(tmp, "rust_bot")
        shutil.copy(os.path.join(ROOT, "sample-bots/rust/target/release/heuristic_bot"), rust_bot)
        bots = [("c", c_bot), ("rust", rust_bot)]
        print(f"runner peak RSS (VmHWM), {seconds:g} s per run")
        print(f"{'scheduled games':>16} {'first run kB':>13} {'rows':>7} {'resumed kB':>11} {'rows':>7}")
        for games in (1_000, 100_000, 10_000_000):
            out = os.path.join(tmp, f"t{games}")
            first, rows1 = run(tarneeb, out, games, bots, seconds)
            again, rows2 = run(tarneeb, out, games, bots, seconds)
            print(f"{games:>16,} {first:>13,} {rows1:>7,} {again:>11,} {rows2:>7,}")
            shutil.rmtree(out)
        if SMOKE:
            print("smoke run: sizes too small for figures")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
