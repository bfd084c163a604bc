#!/usr/bin/env python3
"""A bot that thinks on the other seats' time (tests/alone/freeze_off_turn.rs).

    offturn_bot.py MARKER

A thread of it spins from the hello on. It plays the first legal move at once, and counts the CPU
time its process used between each reply and the next request: off its turn. At the end of the
game it says `OFFTURN cpu_ms=X gaps=N` on stderr. MARKER is ignored (tests find leftovers by it).
"""

import json
import sys
import threading
import time


def spin():
    while True:
        pass


def main():
    off_turn = 0.0
    gaps = 0
    replied_at = None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            threading.Thread(target=spin, daemon=True).start()
            sys.stdout.write(json.dumps({"type": "hello", "name": "offturn", "version": "1"}) + "\n")
            sys.stdout.flush()
        elif kind == "request":
            if replied_at is not None:
                off_turn += time.process_time() - replied_at
                gaps += 1
            reply = {"type": "move", "id": msg["id"], "move": msg["legal"][0]}
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
            replied_at = time.process_time()
        elif kind == "game_end":
            break
    sys.stderr.write(f"OFFTURN cpu_ms={off_turn * 1000:.0f} gaps={gaps}\n")
    sys.stderr.flush()


if __name__ == "__main__":
    main()
