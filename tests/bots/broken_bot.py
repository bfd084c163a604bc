#!/usr/bin/env python3
"""A bot that is right in every way but one, for check-bot's tests.

usage: broken_bot.py MODE [MARKER]

MODE is what it gets wrong:
  talks-after-game-end  writes a line after game_end (nothing may come after it)
  stays-after-game-end  keeps reading after game_end until its input ends (allowed:
                        protocol.md section 1 says a bot may exit at game_end)
  stays-after-eof       sleeps when its input ends instead of exiting
  no-throw-in           never heard of throw-in decisions: crashes when asked one
  no-trump-nt           crashes when No Trump is among its trump choices
  debug-print           prints a debug line to stdout before its first card play
  no-flush              never flushes stdout: its replies stay in its buffer
  double-replies        writes every move reply twice (the referee discards the second as a
                        reply to a request already answered: only check-bot sees it)
  crash-at-hello        raises KeyError('seed') on hello, before answering it
  cut-short             writes its first move reply cut short: the line ends mid-object
MARKER is ignored: tests put a unique word in the command line to find leftover processes.
"""

import json
import random
import sys
import time


FLUSH = True


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    if FLUSH:
        sys.stdout.flush()


def main():
    global FLUSH
    mode = sys.argv[1]
    FLUSH = mode != "no-flush"
    rng = random.Random(3)
    printed = False
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if mode == "crash-at-hello":
                raise KeyError("seed")
            send({"type": "hello", "name": "broken-" + mode})
        elif kind == "game_end":
            if mode == "talks-after-game-end":
                send({"type": "note", "text": "good game"})
            if mode != "stays-after-game-end":
                return
        elif kind == "request":
            if mode == "no-throw-in" and msg["decision"] == "throw-in":
                raise KeyError("throw-in")
            if mode == "no-trump-nt" and "NT" in msg["legal"] and msg["decision"] == "trump":
                raise ValueError("unknown suit NT")
            if mode == "debug-print" and msg["decision"] == "play" and not printed:
                printed = True
                print("my hand:", msg["view"]["hand"], flush=True)
            reply = {"type": "move", "id": msg["id"], "move": rng.choice(msg["legal"])}
            if mode == "cut-short":
                sys.stdout.write(json.dumps(reply)[:20] + "\n")
                sys.stdout.flush()
                continue
            send(reply)
            if mode == "double-replies":
                send(reply)
    if mode == "stays-after-eof":
        time.sleep(60)


if __name__ == "__main__":
    main()
