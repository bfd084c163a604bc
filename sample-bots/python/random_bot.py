#!/usr/bin/env python3
"""A tarneeb bot that plays a uniformly random legal move. Standard library only.

It shows the whole protocol (see protocol.md): answer `hello` with a name (declaring
`multi_game`: this process may play several games), answer `new_game` like `hello`, answer each
`request` with one of its `legal` moves echoing the request `id`, ignore everything else, and
exit when stdin closes. Diagnostics go to stderr, which the referee logs.
"""

import json
import random
import sys

NAME = "python-random"
VERSION = "1.0"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind in ("hello", "new_game"):
            # Every game starts from the same state, kept process or fresh one.
            rng.seed(message["seat"])  # reproducible per seat; any seed works
            send({"type": "hello", "name": NAME, "version": VERSION, "multi_game": True})
        elif kind == "request":
            send({"type": "move", "id": message["id"], "move": rng.choice(message["legal"])})


if __name__ == "__main__":
    main()
