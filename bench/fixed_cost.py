#!/usr/bin/env python3
"""The fixed cost of a tournament game in CPU time, kept up vs fresh, sandbox on vs off, in one run.

    python3 bench/fixed_cost.py
    BINS=before=/tmp/tarneeb-old,after=target/dist/tarneeb SANDBOXES=bwrap MODES=kept \
        REPS=9 python3 bench/fixed_cost.py

"Fixed cost per game" (docs/performance.md, "Fixed cost per game, kept up, with the
sandbox"): the CPU time (user + sys, of the referee and of every process under it: bots, bwrap
and its namespace init) that one more game of a running tournament costs beyond the cost of
its hands. Measured as the CPU time of the whole `tarneeb tournament` process tree, `perf stat
-e task-clock` (counted by the kernel for every thread and process the run starts), which load
from other work on the machine moves far less than wall time. Not getrusage/wait4: a bot in
bwrap's PID namespace is reaped inside it and its CPU time never reaches the referee's rusage
(with the sandbox, rusage showed a quarter of the CPU time perf counts):

    per_game  = (cpu(N one-hand games) - cpu(n one-hand games)) / (N - n)
    per_hand  = (cpu(N games of LONG hands) - cpu(N one-hand games)) / (hands of the first - N)
    fixed     = per_game - per_hand

The difference of a long and a short run of the same configuration leaves out what a run
costs once (the referee's start, the sandbox check, the first start of each kept process: kept
up, a worker starts its processes once), so `fixed` is the steady-state cost of one more game.
`per_hand` comes from the kept-up runs (the same games played to LONG hands, the median over
every kept run): a hand costs the same kept or fresh, sandboxed or not. Also printed: the
whole one-hand game (`per_game`, no subtraction of hands), `amortized fixed` (the N-game run's
CPU time per game minus per_hand: the one-off costs spread over N games), and wall time x jobs
per one-hand game and per hand (the earlier, load-sensitive method; the wall time of a hand is
where a scheduling group per sandboxed bot showed, see docs/performance.md). Needs perf, gcc,
cargo and python3; bwrap for SANDBOXES=bwrap.

Bots: the C and Rust heuristic sample bots, round robin, classic with max-hands 1 and LONG
(the tournament seed fixes the deal sets), --jobs JOBS, pinned (the default). Every
configuration (binary, sandbox, kept or fresh) is run REPS times, interleaved, and the median
and minimum over the repetitions are shown. Knobs: REPS (5), GAMES (N/2 deal sets, 200),
SMALL (n/2, 20), LONG (4), JOBS (2), SANDBOXES (bwrap,none), MODES (kept,fresh), FRESH_DIV
(fresh runs play GAMES/FRESH_DIV deal sets, 4), BINS (label=path,...: binaries compared in the
same run; default the one binary), TARNEEB_BIN (the one binary, default target/dist/tarneeb,
built here in the dist profile).
SMOKE=1: the same pipeline at tiny sizes, in seconds, to check it still runs (bench/smoke.sh,
CI): REPS 1, GAMES 4, SMALL 2, LONG 2 (the knobs still win if given); its figures mean
nothing. perf is required all the same: it is the measure.
A benchmark reports figures; it asserts nothing about time and is not part of `cargo test`.
"""

import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMOKE = os.environ.get("SMOKE") == "1"


def knob(name: str, default: str, smoke: str | None = None) -> str:
    return os.environ.get(name, smoke if SMOKE and smoke is not None else default)


REPS = int(knob("REPS", "5", "1"))
GAMES = int(knob("GAMES", "200", "4"))
SMALL = int(knob("SMALL", "20", "2"))
JOBS = int(knob("JOBS", "2"))
SANDBOXES = knob("SANDBOXES", "bwrap,none").split(",")
MODES = knob("MODES", "kept,fresh").split(",")
FRESH_DIV = int(knob("FRESH_DIV", "4"))
LONG = int(knob("LONG", "4", "2"))


def build(tmp: Path) -> list[str]:
    """Copies the binaries to compare into tmp (a rebuild meanwhile changes nothing) and builds
    the bots; returns the binaries' labels."""
    bins = [b.split("=", 1) for b in os.environ.get("BINS", "").split(",") if b]
    if not bins:
        binary = os.environ.get("TARNEEB_BIN")
        if not binary:
            subprocess.run(["cargo", "build", "--profile", "dist", "--quiet", "--bin", "tarneeb"],
                           cwd=ROOT, check=True)
            binary = str(ROOT / "target/dist/tarneeb")
        bins = [["tarneeb", binary]]
    for label, path in bins:
        shutil.copy(path, tmp / f"bin-{label}")
    subprocess.run(["gcc", "-O2", "-o", str(tmp / "c_bot"),
                    str(ROOT / "sample-bots/c/heuristic_bot.c")], check=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path",
                    str(ROOT / "sample-bots/rust/Cargo.toml")], check=True)
    shutil.copy(ROOT / "sample-bots/rust/target/release/heuristic_bot", tmp / "rust_bot")
    for h in (1, LONG):
        (tmp / f"hands{h}.json").write_text(f'{{"preset": "classic", "max-hands": {h}}}\n')
    return [label for label, _ in bins]


def run(tmp: Path, label: str, sandbox: str, mode: str, hands: int,
        deal_sets: int) -> tuple[float, float, int, int]:
    """One tournament: (CPU seconds of the whole tree, wall seconds, games, hands played)."""
    out = Path(tempfile.mkdtemp(dir=tmp, prefix="t-"))
    shutil.rmtree(out)
    cmd = [str(tmp / f"bin-{label}"), "tournament", "--out", str(out), "--jobs", str(JOBS),
           "--seed", "7", "--public-deals", "--sandbox", sandbox, "--games", str(deal_sets),
           "--rules", str(tmp / f"hands{hands}.json"),
           "--bot", f"c={tmp / 'c_bot'}", "--bot", f"rust={tmp / 'rust_bot'}"]
    if mode == "fresh":
        cmd.append("--fresh-bots")
    stat = out.with_suffix(".stat")
    t0 = time.perf_counter()
    p = subprocess.run(["perf", "stat", "-x", ",", "-e", "task-clock", "-o", str(stat), "--"]
                       + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr.decode(errors='replace')}")
    # task-clock in ms, counted by the kernel for every thread and process the run started.
    cpu = next(float(line.split(",")[0]) for line in stat.read_text().splitlines()
               if "task-clock" in line) / 1000
    rows = (out / "results.jsonl").read_text().splitlines()
    played = sum(int(r.split('"hands":')[1].split(",")[0]) for r in rows)
    # Not removed until the end: on ext4, creating a file where many were just deleted scans
    # the inode bitmap past every recently freed inode (find_inode_bit, recently_deleted),
    # which charged up to 0.7 ms more to each game's record in a loop that removed each run.
    return cpu, wall, len(rows), played


def main() -> None:
    for tool, package in (("perf", "linux-perf"), ("gcc", "gcc"), ("cargo", "rustup")):
        if not shutil.which(tool):
            sys.exit(f"fixed_cost: {tool} is required ({package})")
    if "bwrap" in SANDBOXES and not shutil.which("bwrap"):
        sys.exit("fixed_cost: bwrap is required for SANDBOXES=bwrap (bubblewrap)")
    # Bots outside /tmp's top level and an empty working directory: the sandbox binds the
    # bot's directory and shadows the working directory's entries one by one.
    tmp = Path(tempfile.mkdtemp(prefix="tarneeb-fixed-"))
    try:
        labels = build(tmp)
        os.chdir(tmp)
        load0 = os.getloadavg()[0]
        per_game1: dict[tuple[str, str, str], list[dict]] = {}
        hands: list[float] = []
        for rep in range(REPS):
            for label, sandbox, mode in itertools.product(labels, SANDBOXES, MODES):
                big = GAMES if mode == "kept" else max(GAMES // FRESH_DIV, SMALL + 1)
                small = run(tmp, label, sandbox, mode, 1, SMALL)
                one = run(tmp, label, sandbox, mode, 1, big)
                for r in (small, one):
                    if r[3] != r[2]:
                        sys.exit(f"{sandbox} {mode}: {r[2]} one-hand games played {r[3]} "
                                 f"hands: the method needs every game to last one hand")
                per_game1.setdefault((label, sandbox, mode), []).append({
                    "cpu": (one[0] - small[0]) / (one[2] - small[2]),
                    "amortized": one[0] / one[2],
                    "wall": JOBS * (one[1] - small[1]) / (one[2] - small[2]),
                    "games": one[2],
                })
                if mode == "kept":
                    # The cost of a hand, from the same games played to LONG hands: the
                    # per-game costs cancel out, and the hands' differ by 2-3 per game.
                    many = run(tmp, label, sandbox, mode, LONG, big)
                    hands.append((many[0] - one[0]) / (many[3] - one[3]))
                    per_game1[(label, sandbox, mode)][-1]["hand_wall"] = (
                        JOBS * (many[1] - one[1]) / (many[3] - one[3]))
            print(f"repetition {rep + 1}/{REPS} done, load {os.getloadavg()[0]:.1f}",
                  file=sys.stderr)
        load1 = os.getloadavg()[0]
        hand = statistics.median(hands)
        print(f"C vs Rust heuristic sample bots, round robin, --jobs {JOBS}, {REPS} repetitions, "
              f"load average {load0:.1f} before, {load1:.1f} after")
        print(f"one hand: {1000 * hand:.3f} CPU ms (median of {len(hands)}; "
              f"min {1000 * min(hands):.3f}, max {1000 * max(hands):.3f})")
        print("CPU ms per game (user + sys, referee and every process under it); "
              "median [min] over repetitions")
        head = ("binary", "sandbox", "bots", "games", "fixed", "1-hand game", "amortized fixed",
                "wall x jobs: 1-hand game", "wall x jobs: one hand")
        print("| " + " | ".join(head) + " |")
        print("| " + " | ".join(["---"] * 3 + ["---:"] * 6) + " |")
        for (label, sandbox, mode), rows in per_game1.items():
            def cell(k, minus=0.0):
                v = [1000 * (x[k] - minus) for x in rows if k in x]
                return f"{statistics.median(v):.3f} [{min(v):.3f}]" if v else "-"
            print(f"| {label} | {sandbox} | {mode} | {rows[0]['games']} | {cell('cpu', hand)} | "
                  f"{cell('cpu')} | {cell('amortized', hand)} | {cell('wall')} | "
                  f"{cell('hand_wall')} |")
        if SMOKE:
            print("smoke run: sizes too small for figures")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
