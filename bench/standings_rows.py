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
"""

import itertools
import json
import os
import random
import sys


def main():
    rows_only = "--rows-only" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--rows-only"]
    out = args[0]
    n = int(args[1]) if len(args) > 1 else 1_000_000
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
