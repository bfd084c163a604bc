#!/usr/bin/env python3
"""What the sandbox costs per game: `tarneeb play` wall time of one-hand games (so a game is
almost all fixed cost: starting the referee and four bots, the handshake, stopping them) with
--sandbox none, bwrap wide and bwrap strict, for four C bots and four Python bots; and where
bwrap's own time goes (a bare `true` under bwrap with and without each namespace).

    python3 bench/sandbox_cost.py [GAMES]      (default 20 games per cell)

Needs gcc, bwrap and a release build (target/release/tarneeb; built if missing). Every cell is
the median over GAMES games, the variants interleaved game by game so that load on the machine
hits them alike. A benchmark: it asserts nothing.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 20


def timed(cmd, **kw):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    return (time.perf_counter() - t) * 1000


def main():
    os.chdir(ROOT)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "tarneeb"], check=True)
    tmp = tempfile.mkdtemp(prefix="tarneeb-sbx-bench.")
    cbot = os.path.join(tmp, "first_legal_bot")
    subprocess.run(["gcc", "-O2", "-o", cbot, "bench/first_legal_bot.c"], check=True)
    rules = os.path.join(tmp, "rules.json")
    with open(rules, "w") as f:
        json.dump({"preset": "classic", "max-hands": 1, "contract": {"dealer-forced-7": True}}, f)
    tarneeb = os.path.join(ROOT, "target/release/tarneeb")
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
                argv = [tarneeb, "play", "--json", "--rules", rules, "--seed", str(g + 1),
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

    print("\nwhere bwrap's time goes: median ms to run `true` (one process), 50 runs each:")
    base = ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--die-with-parent"]
    variants = {
        "true (no bwrap)": ["true"],
        "bwrap, no new namespaces but mount": ["bwrap", "--unshare-user"] + base + ["true"],
        "+ pid, ipc, uts, cgroup": ["bwrap", "--unshare-user", "--unshare-pid", "--unshare-ipc",
                                   "--unshare-uts", "--unshare-cgroup"] + base + ["true"],
        "+ network (all)": ["bwrap", "--unshare-all", "--unshare-user"] + base + ["true"],
    }
    runs = {k: [] for k in variants}
    for _ in range(50):
        for k, v in variants.items():
            runs[k].append(timed(v))
    for k in variants:
        print(f"| {k} | {statistics.median(runs[k]):.2f} |")
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
