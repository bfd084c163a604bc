#!/usr/bin/env python3
"""Writes a tournament directory with N result rows for timing `tarneeb standings`.

usage: standings_rows.py DIR [N] [--rows-only]   (N defaults to 1,000,000)

Six entrants in a round robin of duplicate pairs, partnered with themselves; the entrant
`loser` loses every game (the case whose rating fit used to grow with the rows), the others
win at random. Written: tournament.json, results.jsonl and, because standings checks every row
against its record (seed in the header, the result line), a two-line record per game
(games/NNNNNN.jsonl: a header and the result; about 4 GB of disk blocks for a million).
With --rows-only no record is written: time `tarneeb standings --trust-rows DIR` on it.

tournament.json names a sandbox ("bwrap wide"), as a sandboxed run's does, so the rows can be
sealed: `tarneeb standings --trust-rows --reseal DIR` seals them as written (the owner's
choice; with records, `tarneeb standings --reseal DIR` checks them first), after which a plain
`tarneeb standings DIR` takes them under the seal without opening a record.

SMOKE=1 (bench/smoke.sh, CI; DIR and N optional, N then 200): writes both kinds into a temp
directory (or DIR/records and DIR/rows-only) and runs the commands above on them with
$TARNEEB_BIN (else target/dist/tarneeb, built in the dist profile): `standings DIR`,
`standings --trust-rows`, `--trust-rows --reseal` and a plain `standings` under the seal. It
exits 1 if one of them fails or does not count the rows written: a header above that the
referee no longer reads would otherwise only show when someone next times a million rows.
"""

import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    if os.environ.get("SMOKE") == "1":
        smoke()
        return
    rows_only = "--rows-only" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--rows-only"]
    write(args[0], int(args[1]) if len(args) > 1 else 1_000_000, rows_only)


def smoke():
    args = [a for a in sys.argv[1:] if a != "--rows-only"]
    n = int(args[1]) if len(args) > 1 else 200
    tarneeb = os.environ.get("TARNEEB_BIN")
    if not tarneeb:
        subprocess.run(["cargo", "build", "--profile", "dist", "--quiet", "--bin", "tarneeb"],
                       cwd=ROOT, check=True)
        tarneeb = os.path.join(ROOT, "target/dist/tarneeb")
    top = args[0] if args else tempfile.mkdtemp(prefix="tarneeb-standings-rows.")
    try:
        full, rows = os.path.join(top, "records"), os.path.join(top, "rows-only")
        write(full, n, False)
        write(rows, n, True)
        for cmd in (["standings", full], ["standings", "--trust-rows", rows],
                    ["standings", "--trust-rows", "--reseal", rows], ["standings", rows]):
            p = subprocess.run([tarneeb] + cmd, capture_output=True, text=True)
            said = p.stdout + p.stderr
            if p.returncode != 0 or (f"{n} games" not in said and f"sealed {n} rows" not in said):
                sys.exit(f"standings_rows: `tarneeb {' '.join(cmd)}` exited with {p.returncode}"
                         f" and did not count {n} games:\n{said}")
            line = next(l for l in said.splitlines() if f"{n} games" in l or "sealed" in l)
            print(f"tarneeb {' '.join(cmd)}: {line}")
        print("smoke run: sizes too small for figures")
    finally:
        if not args:
            shutil.rmtree(top, ignore_errors=True)


def write(out, n, rows_only):
    os.makedirs(out, exist_ok=True)
    ents = ["a", "b", "c", "d", "e", "loser"]
    with open(os.path.join(out, "tournament.json"), "w") as f:
        json.dump({"entrants": [{"name": e, "command": [e]} for e in ents],
                   "sandbox": "bwrap wide"}, f)
    os.makedirs(os.path.join(out, "games"), exist_ok=True)
    header = (
        '{"type":"header","format":1,"referee":"tarneeb-referee 0.1.0","rules":{"target":31,"max-'
        'hands":200,"contract":{"bids":"numbers","strain-order":"c-d-h-s-nt","auction":"eliminati'
        'on","dealer-forced-7":false,"all-pass":"same-dealer","trump":"declarer-names","no-trump"'
        ':false,"trump-first-lead":false,"doubling":"off","defenders-multiplied":false,"kaboot":"'
        'bonus","instant-win-only-bid-13":false,"instant-win-not-when-negative":false,"throw-in-w'
        'eak-hand":false,"throw-in-long-suit":false,"dakak":false,"out-of-call":false}},"seed":%d'
        ',"first_dealer":1,"bots":[],"time":{"handshake_ms":10000,"move_ms":30000,"bank_ms":null,'
        '"increment_ms":0},"on_fault":"forfeit"}'
        "\n")
    rng = random.Random(1)
    matches = list(itertools.combinations(ents, 2))
    with open(os.path.join(out, "results.jsonl"), "w") as f:
        game = pair = 0
        while game < n:
            x, y = matches[pair % len(matches)]
            seed = rng.getrandbits(63)
            for s0, s1 in ((x, y), (y, x)):
                if "loser" in (s0, s1):
                    w = 0 if s1 == "loser" else 1
                else:
                    w = rng.choice([0, 1])
                row = {"game": game, "pair": pair, "seed": seed, "seats": [s0, s1, s0, s1],
                       "winner": w, "reason": "target",
                       "team_scores": [41, 12] if w == 0 else [12, 41], "hands": 7,
                       "forfeit_seat": None, "record": "games/%06d.jsonl" % game,
                       "referee_us_per_move": 12.5}
                f.write(json.dumps(row, separators=(",", ":")) + "\n")
                if rows_only:
                    game += 1
                    continue
                with open(os.path.join(out, row["record"]), "w") as r:
                    r.write(header % seed)
                    r.write('{"type":"result","winner":%d,"reason":"target","hands":7,'
                            '"team_scores":[%d,%d]}\n' % (w, *row["team_scores"]))
                game += 1
            pair += 1


if __name__ == "__main__":
    main()
