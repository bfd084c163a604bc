#!/usr/bin/env python3
"""A random bot that plays several games per process, for the tests of bots kept up.

usage: multi_bot.py MODE [MARKER]

Names itself `p<pid>-<start ns>` in every hello reply, so records tell which process played
which game, and writes `game N of <name>` to stderr at the start of each game. Plays random
legal moves seeded by its seat at every hello / new_game (a kept process plays as a fresh one).
MODE:
- `multi`: declares multi_game;
- `single`: does not declare it, but keeps reading after game_end (so only the referee's
  choice decides whether it plays again);
- `illegal-first`: declares multi_game and plays an illegal card at its third request of its
  first game (a faulting process must not be kept).
MARKER is ignored: tests put a unique word in the command line to find leftover processes.
"""

import json
import os
import random
import sys
import time

NAME = "p%d-%d" % (os.getpid(), time.time_ns())


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    mode = sys.argv[1]
    rng = random.Random()
    games = requests = 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind in ("hello", "new_game"):
            games += 1
            requests = 0
            rng.seed(msg["seat"])
            sys.stderr.write("game %d of %s\n" % (games, NAME))
            sys.stderr.flush()
            reply = {"type": "hello", "name": NAME}
            if mode != "single":
                reply["multi_game"] = True
            send(reply)
        elif kind == "request":
            requests += 1
            move = rng.choice(msg["legal"])
            if mode == "illegal-first" and games == 1 and requests == 3:
                move = "XX"
            send({"type": "move", "id": msg["id"], "move": move})


if __name__ == "__main__":
    main()
