#!/usr/bin/env python3
"""What the sandbox costs per game: `tarneeb play` wall time of one-hand games (so a game is
almost all fixed cost: starting the referee and four bots, the handshake, stopping them) with
--sandbox none, bwrap wide and bwrap strict, for four C bots and four Python bots; and where
bwrap's own time goes (a bare `true` under bwrap with and without each namespace).

    python3 bench/sandbox_cost.py [GAMES]      (default 20 games per cell)

Needs gcc and bwrap. The referee: TARNEEB_BIN, else target/dist/tarneeb (cargo build --profile
dist). Every cell is the median over GAMES games, the variants interleaved game by game so that
load on the machine hits them alike. A benchmark: it asserts nothing.
SMOKE=1: the same pipeline at tiny sizes, in seconds, to check it still runs (bench/smoke.sh,
CI): GAMES defaults to 1 and bwrap's own time to 2 runs; its figures mean nothing.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMOKE = os.environ.get("SMOKE") == "1"
GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 1 if SMOKE else 20
BWRAP_RUNS = 2 if SMOKE else 50


def timed(cmd, **kw):
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)
    ms = (time.perf_counter() - t) * 1000
    if p.returncode != 0:
        sys.exit(f"sandbox_cost: {' '.join(cmd)} exited with {p.returncode}:\n"
                 f"{p.stderr.decode(errors='replace')}")
    return ms


def main():
    os.chdir(ROOT)
    if not shutil.which("bwrap"):
        sys.exit("sandbox_cost: bwrap is required (Debian: bubblewrap)")
    tarneeb = os.environ.get("TARNEEB_BIN")
    if not tarneeb:
        subprocess.run(["cargo", "build", "--profile", "dist", "--quiet", "--bin", "tarneeb"],
                       check=True)
        tarneeb = os.path.join(ROOT, "target/dist/tarneeb")
    tarneeb = os.path.abspath(tarneeb)
    tmp = tempfile.mkdtemp(prefix="tarneeb-sbx-bench.")
    try:
        measure(tarneeb, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if SMOKE:
        print("smoke run: sizes too small for figures")


def measure(tarneeb, tmp):
    cbot = os.path.join(tmp, "first_legal_bot")
    subprocess.run(["gcc", "-O2", "-o", cbot, "bench/first_legal_bot.c"], check=True)
    rules = os.path.join(tmp, "rules.json")
    with open(rules, "w") as f:
        json.dump({"preset": "classic", "max-hands": 1, "contract": {"dealer-forced-7": True}}, f)
    bots = {"C": cbot, "Python": "python3 sample-bots/python/random_bot.py"}
    sandboxes = {
        "none": ["--sandbox", "none"],
        "bwrap wide": ["--sandbox", "bwrap", "--sandbox-view", "wide"],
        "bwrap strict": ["--sandbox", "bwrap", "--sandbox-view", "strict"],
    }
    times = {(b, s): [] for b in bots for s in sandboxes}
    for g in range(GAMES):
        for b, cmd in bots.items():
            for s, flags in sandboxes.items():
                # --public-deals: every variant gets the seed's deal (else a new secret key's).
                argv = [tarneeb, "play", "--json", "--public-deals", "--rules", rules,
                        "--seed", str(g + 1),
                        "--record", os.path.join(tmp, "g.jsonl")] + flags
                for _ in range(4):
                    argv += ["--bot", cmd]
                times[(b, s)].append(timed(argv))
    print(f"one-hand games, median ms per game over {GAMES} games (referee start to exit):")
    print(f"| bots | {' | '.join(sandboxes)} | ratio wide/none | ratio strict/none |")
    print("| --- |" + " ---: |" * (len(sandboxes) + 2))
    for b in bots:
        med = [statistics.median(times[(b, s)]) for s in sandboxes]
        print(f"| {b} | " + " | ".join(f"{m:.1f}" for m in med)
              + f" | {med[1] / med[0]:.2f} | {med[2] / med[0]:.2f} |")

    print(f"\nwhere bwrap's time goes: median ms to run `true` (one process), {BWRAP_RUNS} runs each:")
    base = ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--die-with-parent"]
    variants = {
        "true (no bwrap)": ["true"],
        "bwrap, no new namespaces but mount": ["bwrap", "--unshare-user"] + base + ["true"],
        "+ pid, ipc, uts, cgroup": ["bwrap", "--unshare-user", "--unshare-pid", "--unshare-ipc",
                                   "--unshare-uts", "--unshare-cgroup"] + base + ["true"],
        "+ network (all)": ["bwrap", "--unshare-all", "--unshare-user"] + base + ["true"],
    }
    runs = {k: [] for k in variants}
    for _ in range(BWRAP_RUNS):
        for k, v in variants.items():
            runs[k].append(timed(v))
    for k in variants:
        print(f"| {k} | {statistics.median(runs[k]):.2f} |")


if __name__ == "__main__":
    main()
