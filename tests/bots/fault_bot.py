#!/usr/bin/env python3
"""A bot that misbehaves on purpose, for the referee's end-to-end tests.

usage: fault_bot.py MODE [TRIGGER] [MARKER]

Plays random legal moves and, at its TRIGGER-th request (default 3; for `illegal`, its
TRIGGER-th card play), does what MODE says. In `slow` mode TRIGGER is a delay in milliseconds
before every card play; in `burn` mode the CPU time it spends before every reply; in `spin`
mode the number of processes it starts spinning on the CPU. `shut-stdin` closes its stdin before
its hello reply, `shut-stdin-last` before the reply to its last card of the hand. MARKER is ignored: tests put a unique word in
the command line to find leftover processes.
"""

import json
import os
import random
import sys
import time

CARDS = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    mode = sys.argv[1]
    trigger = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rng = random.Random(7)
    requests = plays = 0
    if mode == "stderr-flood":
        chunk = "x" * 1023 + "\n"
        for _ in range(20 * 1024):
            sys.stderr.write(chunk)
        sys.stderr.flush()
    if mode == "fork-holder":
        if os.fork() == 0:
            # The child keeps the inherited stdout open and sleeps.
            time.sleep(1000)
            os._exit(0)
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if mode == "no-hello":
                continue
            if mode == "shut-stdin":
                # Closed before the reply, so every write the referee makes from now on meets
                # a pipe with no reader; then alive, with stdout open, but deaf.
                os.close(0)
                send({"type": "hello", "name": "fault-" + mode, "version": "1"})
                time.sleep(1000)
            send({"type": "hello", "name": "fault-" + mode, "version": "1"})
            if mode == "spin":
                # TRIGGER processes spinning on the CPU from now on, to starve the other seats
                # (this one's own replies come from a process of the same cgroup).
                for _ in range(trigger):
                    if os.fork() == 0:
                        while True:
                            pass
            continue
        if kind == "game_end":
            return
        if kind != "request":
            continue
        requests += 1
        if mode == "burn":
            # An honest bot that thinks: TRIGGER ms of CPU time before every reply.
            start = time.process_time()
            while time.process_time() - start < trigger / 1000:
                pass
        if msg["decision"] == "play":
            plays += 1
        if mode == "slow" and msg["decision"] == "play":
            time.sleep(trigger / 1000.0)
        fire = requests == trigger and mode != "slow"
        if mode == "shut-stdin-last" and msg["decision"] == "play" and len(msg["view"]["hand"]) == 1:
            # Its last card (a one-hand game): stdin closed before the reply, so the referee's
            # write of game_end fails after a game the bot played to its end.
            os.close(0)
            send({"type": "move", "id": msg["id"], "move": msg["legal"][0]})
            time.sleep(1000)
        rid, legal = msg["id"], msg["legal"]
        if mode == "illegal" and msg["decision"] == "play" and plays == trigger:
            send({"type": "move", "id": rid, "move": next(c for c in CARDS if c not in legal)})
            continue
        if fire:
            if mode == "hang":
                time.sleep(1000)
            if mode == "exit":
                sys.exit(3)
            if mode == "close-stdout":
                # Alive, reading, but nothing more can come out of it.
                os.close(1)
                while os.read(0, 65536):
                    pass
                time.sleep(1000)
            if mode == "close-stdin":
                # This move answered, then nothing more can go in: the referee's next write
                # to it meets a pipe with no reader (EPIPE, or SIGPIPE if not ignored).
                send({"type": "move", "id": rid, "move": rng.choice(legal)})
                os.close(0)
                time.sleep(1000)
            if mode == "garbage":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            if mode == "long-line":
                sys.stdout.write("{\"type\": \"move\", \"pad\": \"" + "x" * (10 * 1024 * 1024) + "\"}\n")
                sys.stdout.flush()
                continue
            if mode == "wrong-id":
                send({"type": "move", "id": rid + 1000, "move": legal[0]})
                continue
            if mode == "fork-holder":
                # The parent exits; its child still holds stdout, so no end-of-file arrives.
                os._exit(0)
            if mode == "unsolicited":
                # One write for both lines, so the extra line is in the pipe before the referee
                # can send another request: written separately, a slow machine could deliver
                # it while the next request is outstanding (a bad reply, not an unsolicited line).
                move = {"type": "move", "id": rid, "move": rng.choice(legal)}
                note = {"type": "note", "text": "nobody asked"}
                sys.stdout.write(json.dumps(move) + "\n" + json.dumps(note) + "\n")
                sys.stdout.flush()
                continue
            if mode == "blank-line":
                # A reply, then an empty line in the same write (as print() after a print).
                move = {"type": "move", "id": rid, "move": rng.choice(legal)}
                sys.stdout.write(json.dumps(move) + "\n\n")
                sys.stdout.flush()
                continue
            if mode == "stale":
                send({"type": "move", "id": rid - 1, "move": legal[0]})
            if mode == "stale-only":
                # Answers with the id of the request before, and never this one.
                send({"type": "move", "id": rid - 1, "move": legal[0]})
                continue
            if mode == "stale-flood":
                # Thousands of replies to an answered request, in one write, then the reply.
                line = json.dumps({"type": "move", "id": rid - 1, "move": legal[0]}) + "\n"
                sys.stdout.write(line * 5000)
                sys.stdout.flush()
        send({"type": "move", "id": rid, "move": rng.choice(legal)})


if __name__ == "__main__":
    main()
