#!/usr/bin/env python3
"""Two bots of one entrant try to talk through the kernel (tests/slow/kernel_channels.rs).

    channel_bot.py MODE SHARED_FILE

At every request the bot publishes its seat through the channel MODE and looks for another
seat's message; the first one found it reports as `RECEIVED: ...` on stderr. At the end of the
game (or of its input) it reports `NOTHING: MODE` when it found none. Plays like a random bot.

Modes: keyring (add_key / keyctl search in the user keyring), flock and fcntl (locks on
SHARED_FILE, a file every bot can read), shm (files in /dev/shm), cgroup (the cgroup tree in
/sys/fs/cgroup: other bots' counters).
"""

import ctypes
import errno
import fcntl
import json
import os
import random
import struct
import sys

MODE = sys.argv[1]
SHARED = sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
SYS_ADD_KEY, SYS_KEYCTL = 248, 250
KEY_SPEC_USER_KEYRING = -4
KEYCTL_SEARCH = 10
received = None
seat = None
held = []


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def name(s):
    return f"tarneeb-channel-seat{s}".encode()


def publish():
    if MODE == "keyring":
        libc.syscall(SYS_ADD_KEY, b"user", name(seat), b"AS", 2, KEY_SPEC_USER_KEYRING)
    elif MODE == "flock" and not held:
        f = open(SHARED, "rb")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(f)
        except OSError as e:
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                return "flock: the shared file is locked by another process"
    elif MODE == "fcntl" and not held:
        f = open(SHARED, "rb")
        try:
            fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
            held.append(f)
        except OSError:
            pass
    elif MODE == "shm":
        try:
            with open(f"/dev/shm/tarneeb-channel-seat{seat}", "w") as f:
                f.write("AS")
        except OSError:
            pass
    return None


def getlk(path):
    """F_GETLK for a write lock on `path`: the lock type the kernel says is in the way."""
    with open(path, "rb") as f:
        probe = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
        out = fcntl.fcntl(f, fcntl.F_GETLK, probe)
        return struct.unpack("hhqqi", out)[0]


def receive():
    if MODE == "keyring":
        for other in range(4):
            if other != seat:
                serial = libc.syscall(
                    SYS_KEYCTL, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, b"user", name(other), 0
                )
                if serial > 0:
                    return f"keyring: found seat {other}'s key"
    elif MODE == "fcntl":
        control = f"/tmp/tarneeb-channel-control-{seat}"
        with open(control, "w"):
            pass
        if getlk(SHARED) != getlk(control):
            return "fcntl: another process holds a lock on the shared file"
    elif MODE == "shm":
        try:
            others = [n for n in os.listdir("/dev/shm") if n.startswith("tarneeb-channel-seat")]
        except OSError:
            others = []
        others = [n for n in others if n != f"tarneeb-channel-seat{seat}"]
        if others:
            return f"shm: {others}"
    elif MODE == "cgroup":
        found = []
        for root, _dirs, files in os.walk("/sys/fs/cgroup"):
            found.extend(os.path.join(root, f) for f in files)
            if len(found) > 5:
                break
        if found:
            return f"cgroup: {len(found)}+ files, e.g. {found[0]}"
    return None


def main():
    global received, seat
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind in ("hello", "new_game"):
            seat = message["seat"]
            print(json.dumps({"type": "hello", "name": "channel", "version": "1"}), flush=True)
        elif kind == "request":
            if received is None:
                received = publish() or receive()
                if received:
                    log("RECEIVED: " + received)
            move = rng.choice(message["legal"])
            print(json.dumps({"type": "move", "id": message["id"], "move": move}), flush=True)
        elif kind == "game_end":
            break
    if received is None:
        log("NOTHING: " + MODE)
    if MODE == "keyring" and seat is not None:
        # Leave nothing behind in the user's keyring (it outlives the sandbox).
        serial = libc.syscall(SYS_KEYCTL, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, b"user", name(seat), 0)
        if serial > 0:
            libc.syscall(SYS_KEYCTL, 21, serial)  # KEYCTL_INVALIDATE


if __name__ == "__main__":
    main()
