#!/usr/bin/env python3
"""A bot that logs what it receives, for the referee's event-delivery test.

Plays seeded random legal moves and writes every line it receives to stderr as
`READ_NUMBER<TAB>LINE`, where READ_NUMBER counts the reads from stdin: lines written by the
referee in one batch arrive in one read.
"""

import json
import os
import random
import sys


def main():
    rng = random.Random(11)
    pending = b""
    reads = 0
    while True:
        chunk = os.read(0, 1 << 20)
        if not chunk:
            return
        reads += 1
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for raw in lines:
            line = raw.decode()
            sys.stderr.write(f"{reads}\t{line}\n")
            msg = json.loads(line)
            if msg["type"] == "hello":
                reply = {"type": "hello", "name": "log-bot"}
            elif msg["type"] == "request":
                reply = {"type": "move", "id": msg["id"], "move": rng.choice(msg["legal"])}
            elif msg["type"] == "game_end":
                sys.stderr.flush()
                return
            else:
                continue
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


main()
