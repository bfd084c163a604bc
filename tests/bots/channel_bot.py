#!/usr/bin/env python3
"""Two bots of one entrant try to talk through the kernel (tests/slow/kernel_channels.rs).

    channel_bot.py MODE SHARED_FILE

At every request the bot publishes its seat through the channel MODE and looks for another
seat's message; the first one found it reports as `RECEIVED: ...` on stderr. At the end of the
game (or of its input) it reports `NOTHING: MODE` when it found none. Plays like a random bot.

Modes: keyring (add_key / keyctl search in the user keyring), flock and fcntl (locks on
SHARED_FILE, a file every bot can read), shm (files in /dev/shm), cgroup (the cgroup tree in
/sys/fs/cgroup: other bots' counters).

Issue 38's quieter channels: inotify, fanotify and dnotify (a watch on SHARED_FILE, or on its
directory, sees other processes open or read it: more events than the bot's own opens is a
message), pagecache:SET and mincore:SET (the bot evicts the four files
tests/bots/pagecache/SET{0..3} at its hello and reads its own at each request; another seat's
file found cached, by preadv2(RWF_NOWAIT) or by mincore, is a message), counters (the machine's
counters in /proc and sysinfo(2): any change between two requests is a message), twin:SET
(across the two games of a duplicate pair: at hello the bot asks whether tests/bots/pagecache/
SET0 is cached (by mincore, which loads nothing: a RWF_NOWAIT probe of a missing page
starts reading it in), and at the end of its game it reads it; the test evicts it before the first
game, so a cached page at the second game's hello is a message from the first), vsock (a socket of the
hypervisor's family opens at all).
"""

import ctypes
import errno
import fcntl
import json
import mmap
import os
import random
import signal
import socket
import struct
import sys

MODE, _, SET = sys.argv[1].partition(":")
SHARED = sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
PAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pagecache")
COUNTERS = [
    "/proc/loadavg", "/proc/stat", "/proc/meminfo", "/proc/vmstat", "/proc/diskstats",
    "/proc/uptime", "/proc/sys/fs/file-nr", "/proc/sys/kernel/pty/nr", "/proc/pressure/cpu",
    "/proc/interrupts", "/sys/block",
]
watch = {"fd": None, "own": 0, "seen": 0, "failed": False}
last_counters = [None]
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


def page_file(s):
    return os.path.join(PAGES, f"{SET}{s}")


def evict_all():
    """At hello: every seat's page file out of the cache (if the kernel lets us)."""
    for s in range(4):
        try:
            with open(page_file(s), "rb") as f:
                os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        except OSError:
            pass


def cached(path):
    """True when `path`'s first page is in the page cache, None when the kernel will not say."""
    try:
        with open(path, "rb") as f:
            if MODE == "pagecache":
                try:
                    os.preadv(f.fileno(), [bytearray(1)], 0, os.RWF_NOWAIT)
                    return True
                except BlockingIOError:
                    return False
            libc.mmap.restype = ctypes.c_void_p
            libc.mmap.argtypes = [
                ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                ctypes.c_long,
            ]
            libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
            addr = libc.mmap(None, 4096, mmap.PROT_READ, mmap.MAP_SHARED, f.fileno(), 0)
            if addr in (None, ctypes.c_void_p(-1).value):
                return None
            try:
                vec = (ctypes.c_ubyte * 1)()
                if libc.mincore(ctypes.c_void_p(addr), 4096, vec) != 0:
                    return None
                return bool(vec[0] & 1)
            finally:
                libc.munmap(addr, 4096)
    except OSError:
        return None


def start_watch():
    if watch["fd"] is not None or watch["failed"]:
        return
    try:
        if MODE == "inotify":
            fd = libc.inotify_init1(os.O_NONBLOCK)
            if fd < 0 or libc.inotify_add_watch(fd, SHARED.encode(), 0x20) < 0:  # IN_OPEN
                raise OSError(ctypes.get_errno(), "inotify")
        elif MODE == "fanotify":
            libc.fanotify_mark.argtypes = [
                ctypes.c_int, ctypes.c_uint, ctypes.c_uint64, ctypes.c_int, ctypes.c_char_p
            ]
            # FAN_CLASS_NOTIF | FAN_REPORT_FID | FAN_NONBLOCK
            fd = libc.fanotify_init(0x200 | 0x2, os.O_RDONLY)
            if fd < 0 or libc.fanotify_mark(fd, 1, 0x20, -100, SHARED.encode()) < 0:
                raise OSError(ctypes.get_errno(), "fanotify")
        else:  # dnotify: reads of any file in SHARED's directory raise SIGIO
            signal.signal(signal.SIGIO, lambda *_: watch.__setitem__("seen", watch["seen"] + 1))
            fd = os.open(os.path.dirname(os.path.abspath(SHARED)), os.O_RDONLY)
            fcntl.fcntl(fd, fcntl.F_NOTIFY, fcntl.DN_ACCESS | fcntl.DN_MULTISHOT)
        watch["fd"] = fd
    except OSError:
        watch["failed"] = True


def touch_shared():
    """Opens (and reads) the shared file: one event for every watch on it."""
    with open(SHARED, "rb") as f:
        f.read(1)
    watch["own"] += 1


def drain():
    """Events read from the watch so far (dnotify counts in its signal handler)."""
    if MODE == "dnotify":
        return watch["seen"]
    while True:
        try:
            data = os.read(watch["fd"], 65536)
        except BlockingIOError:
            return watch["seen"]
        i = 0
        while i < len(data):
            if MODE == "inotify":
                length = struct.unpack_from("iIII", data, i)[3]
                i += 16 + length
            else:
                i += struct.unpack_from("I", data, i)[0]
            watch["seen"] += 1


def read_sysinfo():
    """sysinfo(2): the machine's loads, free memory and number of processes."""
    buf = ctypes.create_string_buffer(128)
    if libc.sysinfo(buf) != 0:
        return "sysinfo unavailable"
    raw = buf.raw
    # long uptime; unsigned long loads[3], totalram, freeram, ...; unsigned short procs
    return "sysinfo " + raw[8:32].hex() + " " + raw[40:48].hex() + " " + raw[80:82].hex()


def read_counters():
    out = [read_sysinfo()]
    for path in COUNTERS:
        try:
            if os.path.isdir(path):
                for name in sorted(os.listdir(path)):
                    with open(os.path.join(path, name, "stat")) as f:
                        out.append(f.read())
            else:
                with open(path) as f:
                    out.append(path + f.read())
        except OSError:
            out.append(path + " unreadable")
    return out


def quiet_channel():
    """The issue 38 modes: one step at each request; the message found, if any."""
    if MODE in ("inotify", "fanotify", "dnotify"):
        start_watch()
        if watch["failed"]:
            return None
        # Read what came since the last request before touching the file: the kernel merges
        # an event into an identical unread one, so ours would swallow a partner's.
        if drain() > watch["own"]:
            return f"{MODE}: {watch['seen']} events on the shared file, {watch['own']} of them mine"
        touch_shared()
        drain()
    elif MODE in ("pagecache", "mincore"):
        with open(page_file(seat), "rb") as f:
            f.read()
        for other in range(4):
            if other != seat and cached(page_file(other)):
                return f"{MODE}: seat {other}'s page is cached"
    elif MODE == "counters":
        now = read_counters()
        before, last_counters[0] = last_counters[0], now
        if before is not None:
            for b, n in zip(before, now):
                if b != n:
                    return f"counters: {n.splitlines()[0][:60]!r} changed"
    elif MODE == "vsock":
        try:
            socket.socket(40, socket.SOCK_STREAM).close()  # AF_VSOCK
            return "vsock: a socket of the hypervisor's family opened"
        except OSError:
            return None
    return None


def publish():
    if MODE in ("inotify", "fanotify", "dnotify", "pagecache", "mincore", "counters", "vsock"):
        return quiet_channel()
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
            if MODE in ("pagecache", "mincore") and kind == "hello":
                evict_all()
            if MODE == "twin" and cached(os.path.join(PAGES, f"{SET}0")):
                received = "twin: the page a bot of the earlier game loaded is cached"
                log("RECEIVED: " + received)
            print(json.dumps({"type": "hello", "name": "channel", "version": "1"}), flush=True)
        elif kind == "request":
            if received is None:
                received = publish() or receive()
                if received:
                    log("RECEIVED: " + received)
            move = rng.choice(message["legal"])
            print(json.dumps({"type": "move", "id": message["id"], "move": move}), flush=True)
        elif kind == "game_end":
            if MODE == "twin":
                with open(os.path.join(PAGES, f"{SET}0"), "rb") as f:
                    f.read()
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
