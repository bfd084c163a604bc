#!/usr/bin/env python3
"""Writes a tournament directory with N result rows for timing `tarneeb standings`.

usage: standings_rows.py DIR [N]   (N defaults to 1,000,000)

Six entrants in a round robin of duplicate pairs, partnered with themselves; the entrant
`loser` loses every game (the case whose rating fit used to grow with the rows), the others
win at random. Only results.jsonl and tournament.json are written: standings reads nothing else.
"""

import itertools
import json
import os
import random
import sys


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    os.makedirs(out, exist_ok=True)
    ents = ["a", "b", "c", "d", "e", "loser"]
    with open(os.path.join(out, "tournament.json"), "w") as f:
        json.dump({"entrants": [{"name": e, "command": [e]} for e in ents]}, f)
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
                game += 1
            pair += 1


if __name__ == "__main__":
    main()
