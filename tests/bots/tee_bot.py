#!/usr/bin/env python3
"""A bot that keeps the raw bytes it reads and writes, for the trace test.

Usage: tee_bot.py PREFIX. Every byte read from stdin is appended to PREFIX.in and every byte
written to stdout to PREFIX.out, exactly as they crossed the pipe. Plays seeded random legal
moves and exits on game_end or end of file.
"""

import json
import os
import random
import sys


def main():
    prefix = sys.argv[1]
    rng = random.Random(5)
    got = open(prefix + ".in", "wb")
    sent = open(prefix + ".out", "wb")
    pending = b""
    while True:
        chunk = os.read(0, 1 << 20)
        if not chunk:
            return
        got.write(chunk)
        got.flush()
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for raw in lines:
            msg = json.loads(raw)
            if msg["type"] == "hello":
                reply = {"type": "hello", "name": "tee-bot"}
            elif msg["type"] == "request":
                reply = {"type": "move", "id": msg["id"], "move": rng.choice(msg["legal"])}
            elif msg["type"] == "game_end":
                return
            else:
                continue
            out = (json.dumps(reply) + "\n").encode()
            sent.write(out)
            sent.flush()
            os.write(1, out)


if __name__ == "__main__":
    main()
