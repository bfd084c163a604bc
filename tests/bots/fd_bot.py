#!/usr/bin/env python3
"""Reports, on stderr, every descriptor above 2 it holds at its first request (`FDS: [...]`,
each with what it points to), then plays like a random bot. tests/slow/inherited_fds.rs."""

import json
import os
import random
import sys


def main():
    rng = random.Random(0)
    told = False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] in ("hello", "new_game"):
            print(json.dumps({"type": "hello", "name": "fd", "version": "1"}), flush=True)
        elif message["type"] == "request":
            if not told:
                told = True
                names = os.listdir("/proc/self/fd")  # the listing's own descriptor is gone now
                held = []
                for n in sorted(names, key=int):
                    if int(n) > 2:
                        try:
                            held.append(f"{n}->{os.readlink('/proc/self/fd/' + n)}")
                        except OSError:
                            pass
                sys.stderr.write("FDS: " + json.dumps(held) + "\n")
                sys.stderr.flush()
            move = rng.choice(message["legal"])
            print(json.dumps({"type": "move", "id": message["id"], "move": move}), flush=True)


if __name__ == "__main__":
    main()
