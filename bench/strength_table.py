#!/usr/bin/env python3
"""One README table row per gauntlet directory of bench/strength.sh: games, the pimc entrant's
wins-draws-losses, win rate, Elo with its 95% interval (from standings.txt), and each
entrant's double-dummy tricks lost per seat per hand played out (replay --analyze --json over
every record; the duplicate deals make both sides face the same cards).

    python3 bench/strength_table.py TARNEEB_BINARY DIR [DIR ...]
"""
import collections
import json
import subprocess
import sys


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
    pimc = None
    for line in open(f"{d}/standings.txt"):
        f = line.split()
        if len(f) > 13 and f[0].isdigit() and f[1] == "pimc":
            games, won, drawn, lostg = f[2:6]
            elo = f[11]
            interval = " ".join(f[12:14])
            pimc = (games, won, drawn, lostg, elo, interval)
    games, won, drawn, lostg, elo, interval = pimc
    rate = (int(won) + 0.5 * int(drawn)) / int(games)
    per = {n: lost[n] / max(hands[n], 1) for n in (opp, "pimc")}
    preset = d.rstrip("/").split("-", 1)[-1]
    return (f"| {preset} | {opp} | {games} | {won}-{drawn}-{lostg} | {rate:.0%} | {elo} {interval} "
            f"| {per['pimc']:.2f} | {per[opp]:.2f} |")


if __name__ == "__main__":
    print("| game | opponent | games | pimc W-D-L | pimc score | pimc Elo [95%] | pimc DD lost/hand | opponent DD lost/hand |")
    print("|---|---|---|---|---|---|---|---|")
    for d in sys.argv[2:]:
        print(row(sys.argv[1], d), flush=True)
