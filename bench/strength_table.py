#!/usr/bin/env python3
"""One README table row per gauntlet directory of bench/strength.sh: games, the pimc entrant's
wins-draws-losses, win rate, the head-to-head Elo difference with its 95% interval, and each
entrant's double-dummy tricks lost per seat per hand played out (replay --analyze --json over
every record; the duplicate deals make both sides face the same cards); then one pooled row per
opponent over all its directories (all four games together), whose Elo interval is computed as
the standings compute a head-to-head's (src/standings/stats.rs: pairs of games with the sides
swapped as units, Student's t, a quarter pseudo-observation in empty score classes), and each
opponent's points per hand: pimc's side's hand scores minus the other side's, mean and 95%
interval over every hand played (a finer measure than games won, which few games cannot tell).

    python3 bench/strength_table.py TARNEEB_BINARY DIR [DIR ...]
"""
import collections
import json
import math
import os
import subprocess
import sys

PSEUDO = 0.25
T975 = [12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
        2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739,
        2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423]


def t975(df):
    if df <= 30:
        return T975[max(df, 1) - 1]
    z, v = 1.959963984540054, float(df)
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v * v)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3))


def elo(s):
    s = min(max(s, 0.001), 0.999)
    return -400 * math.log10(1 / s - 1)


def mean_score(units):
    """stats.rs mean_score_of_classes: the mean of unit scores and its 95% interval."""
    counts = [0] * 5
    for u in units:
        counts[round(min(max(u, 0), 1) * 4)] += 1
    n = sum(counts)
    mean = sum(c * k / 4 for k, c in enumerate(counts)) / n
    ss = sum(c * (k / 4 - mean) ** 2 for k, c in enumerate(counts))
    reachable = range(5) if counts[1] + counts[3] > 0 else (0, 2, 4)
    empty = [k for k in reachable if counts[k] == 0]
    weight = 0.0
    if empty:
        ss += sum(PSEUDO / len(empty) * (k / 4 - mean) ** 2 for k in empty)
        weight = PSEUDO
    var = ss / max(n - 1 + weight, weight)
    q = t975(max(n - 1, 1)) * math.sqrt(var / n)
    return mean, max(mean - q, 0.0), min(mean + q, 1.0)


def games(d):
    """Each game of a directory: (pair, pimc's score 0/.5/1, pimc's points minus the
    opponent's for each hand)."""
    out = []
    for line in open(f"{d}/results.jsonl"):
        r = json.loads(line)
        team = r["seats"].index("pimc") % 2
        w = r["winner"]
        score = 0.5 if w is None else float(w == team)
        hands = [h[team] - h[1 - team] for h in r.get("hand_deltas") or []]
        opp = next(n for n in r["seats"] if n != "pimc")
        out.append((r["pair"], score, hands, opp))
    return out


def fallbacks(dirs):
    """Each entrant's requests in the stderr logs of every game, and those answered by rules
    of thumb because no solve finished in time."""
    asked, quick = collections.Counter(), collections.Counter()
    for d in dirs:
        for line in open(f"{d}/results.jsonl"):
            r = json.loads(line)
            stem = r["record"].rsplit(".jsonl", 1)[0]
            for seat, name in enumerate(r["seats"]):
                try:
                    log = open(f"{d}/{stem}.seat{seat}.stderr.log", errors="replace")
                except FileNotFoundError:
                    continue
                for l in log:
                    if l.startswith("pimc: request"):
                        asked[name] += 1
                        quick[name] += "solving missed the budget" in l
    return asked, quick


def head_to_head(sets):
    """W-D-L, the head-to-head Elo difference with its 95% interval (pairs of games with the
    sides swapped as units, as the standings compute a head-to-head) and the points a hand
    with theirs, over the games of `sets` [(dir, games)]."""
    units, hands, wdl = [], [], [0, 0, 0]
    for d, gs in sets:
        pairs = collections.defaultdict(list)
        for pair, score, hs, _ in gs:
            pairs[(d, pair)].append(score)
            hands.extend(hs)
            wdl[0 if score == 1 else 1 if score == 0.5 else 2] += 1
        units.extend(sum(v) / len(v) for v in pairs.values())
    s, lo, hi = mean_score(units)
    n = len(hands)
    m = sum(hands) / n
    sd = math.sqrt(sum((h - m) ** 2 for h in hands) / (n - 1))
    q = t975(n - 1) * sd / math.sqrt(n)
    games_n = sum(wdl)
    return (f"{games_n} | {wdl[0]}-{wdl[1]}-{wdl[2]} | {(wdl[0] + 0.5 * wdl[1]) / games_n:.0%} | "
            f"{elo(s):+.1f} [{elo(lo):+.1f}, {elo(hi):+.1f}]",
            f"{n} hands: {m:+.2f} [{m - q:+.2f}, {m + q:+.2f}]")


def pooled(dirs):
    """One row per opponent over all its directories."""
    by_opp = collections.defaultdict(list)
    for d in dirs:
        gs = games(d)
        if gs:
            by_opp[gs[0][3]].append((d, gs))
    rows = []
    for opp, sets in sorted(by_opp.items()):
        result, points = head_to_head(sets)
        rows.append(f"| all four | {opp} | {result} | {points} |")
    return rows


def row(tarneeb, d):
    lost, hands = collections.Counter(), collections.Counter()
    names = set()
    for line in open(f"{d}/results.jsonl"):
        r = json.loads(line)
        names.update(r["seats"])
        out = subprocess.run([tarneeb, "replay", f"{d}/{r['record']}", "--analyze", "--json"],
                             check=True, capture_output=True).stdout
        a = json.loads(out)["analysis"]
        for seat, acc in enumerate(a["seats"]):
            lost[r["seats"][seat]] += acc["tricks_lost"]
            hands[r["seats"][seat]] += len(a["hands"])
    opp = next(n for n in sorted(names) if n != "pimc")
    result, points = head_to_head([(d, games(d))])
    per = {n: lost[n] / max(hands[n], 1) for n in (opp, "pimc")}
    # DIR is OUT/NAME-PRESET: the preset from the last component only (OUT may hold a '-').
    preset = os.path.basename(d.rstrip("/")).split("-", 1)[-1]
    return (f"| {preset} | {opp} | {result} | {points} | {per['pimc']:.2f} | {per[opp]:.2f} |")


if __name__ == "__main__":
    # One Elo scale (issue 28): the head-to-head Elo difference (a difference of 100 is an
    # expected 64%), per game and pooled, both from pairs of games as the standings compute a
    # head-to-head. (The standings' rating of an entrant splits it between the two: about half.)
    print("| game | opponent | games | pimc W-D-L | pimc score | head-to-head Elo difference [95%] | pimc points minus the opponent's per hand [95%] | pimc DD lost/hand | opponent DD lost/hand |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in sys.argv[2:]:
        print(row(sys.argv[1], d), flush=True)
    for r in pooled(sys.argv[2:]):
        print(r[:-1] + "| | |")
    asked, quick = fallbacks(sys.argv[2:])
    for name in sorted(asked):
        print(f"\n{name} answered {asked[name]} requests, {quick[name]} "
              f"({quick[name] / asked[name]:.1%}) by rules of thumb (no solve finished in time)")
