#!/usr/bin/env python3
"""Reads pimc stderr logs (bench/pimc_deals.sh): deals solved per decision by trick and by
place in the trick, calls and trump choices, and the share answered by rules of thumb; where the
log says so, the deals carried from the previous decision and the time spent drawing fresh ones
(src/pimc/carry.rs).

    python3 bench/pimc_deals.py LOG [LOG ...]
    python3 bench/pimc_deals.py --entrant NAME DIR [DIR ...]

The second form reads the logs of one entrant's seats in tournament directories (each game's
record.seatN.stderr.log, the seat named by results.jsonl), e.g. the new pimc of
bench/pimc_versions.sh ("pimc") without its baseline ("old")."""
import json
import os
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"pimc: request \d+ (\w+)(?: \(trick (\d+), card (\d+)\))?: .* after (\d+) samples in (\d+) ms")
CARRY = re.compile(r"samples/s\)?[,;] (\d+) carried, ([\d.]+) ms drawing")
by_trick, by_place, by_kind = defaultdict(list), defaultdict(list), defaultdict(list)
ms_trick = defaultdict(list)
carried_trick, drawing_trick = defaultdict(list), defaultdict(list)
quick, total, ms = defaultdict(int), defaultdict(int), defaultdict(list)


def entrant_logs(name, dirs):
    """The stderr logs of the seats `name` sat at, over every game of the directories."""
    for d in dirs:
        for line in open(f"{d}/results.jsonl"):
            r = json.loads(line)
            stem = r["record"].rsplit(".jsonl", 1)[0]
            for seat, who in enumerate(r["seats"]):
                log = f"{d}/{stem}.seat{seat}.stderr.log"
                if who == name and os.path.exists(log):  # no log: the bot wrote nothing
                    yield log


paths = sys.argv[1:]
if paths[:1] == ["--entrant"] and len(paths) >= 3:
    paths = list(entrant_logs(paths[1], paths[2:]))
for path in paths:
    for line in open(path):
        m = LINE.search(line)
        if not m:
            continue
        kind, trick, place, n, t = m.groups()
        group = "card" if kind == "play" else "call/trump" if kind in ("call", "trump") else kind
        total[group] += 1
        if "quick answer" in line:
            quick[group] += 1
            continue
        n = int(n)
        if n == 0:  # one legal move: nothing to decide
            continue
        by_kind[kind].append(n)
        ms[group].append(int(t))
        if trick:
            by_trick[int(trick)].append(n)
            ms_trick[int(trick)].append(int(t))
            by_place[int(place)].append(n)
            c = CARRY.search(line)
            if c:
                carried_trick[int(trick)].append(int(c.group(1)))
                drawing_trick[int(trick)].append(float(c.group(2)))
if not total:
    # An empty table would pass for a result: no log, or a log line this no longer parses.
    sys.exit(f"pimc_deals: no pimc request line in {len(paths)} logs (none given, or the "
             "bot's log format changed: see LINE above)")


def row(name, xs, times=None):
    xs = sorted(xs)
    q = lambda p: xs[min(len(xs) - 1, int(p * len(xs)))]
    mean = f"{statistics.mean(times):.0f}" if times else ""
    return f"| {name} | {len(xs)} | {q(0.1)} | {statistics.median(xs):g} | {q(0.9)} | {mean} |"


print("| decisions | n | p10 deals | median deals | p90 deals | mean ms |")
print("|---|---|---|---|---|---|")
for t in sorted(by_trick):
    print(row(f"trick {t}", by_trick[t], ms_trick[t]))
for p in sorted(by_place):
    print(row(f"card {p} of the trick", by_place[p]))
for k in sorted(by_kind):
    if k != "play":
        print(row(k, by_kind[k]))
for g in sorted(total):
    share = 100.0 * quick[g] / total[g]
    mean_ms = statistics.mean(ms[g]) if ms[g] else 0
    print(f"{g}: {quick[g]} of {total[g]} replies by rules of thumb ({share:.1f}%), "
          f"mean {mean_ms:.0f} ms a solved reply")
if carried_trick:
    print()
    print("| trick | deals solved | of them carried | share carried | mean ms drawing fresh deals |")
    print("|---|---|---|---|---|")
    for t in sorted(carried_trick):
        solved, carried = sum(by_trick[t]), sum(carried_trick[t])
        print(f"| {t} | {solved} | {carried} | {100.0 * carried / max(solved, 1):.1f}% | "
              f"{statistics.mean(drawing_trick[t]):.2f} |")
    solved = sum(sum(v) for v in by_trick.values())
    carried = sum(sum(v) for v in carried_trick.values())
    drawing = sum(sum(v) for v in drawing_trick.values())
    card_ms = sum(sum(v) for v in ms_trick.values())
    print(f"cards: {carried} of {solved} deals carried ({100.0 * carried / max(solved, 1):.1f}%), "
          f"{drawing:.0f} ms drawing fresh deals of {card_ms} ms thinking ({100.0 * drawing / max(card_ms, 1):.1f}%)")
