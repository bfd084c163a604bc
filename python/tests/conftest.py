"""Shared helpers: the `tarneeb` binary the package is checked against."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def tarneeb_bin():
    """The referee binary: $TARNEEB_BIN, else the repository's release or debug build."""
    env = os.environ.get("TARNEEB_BIN")
    if env:
        return env
    for profile in ("release", "debug"):
        p = ROOT / "target" / profile / "tarneeb"
        if p.exists():
            return str(p)
    found = shutil.which("tarneeb")
    if found:
        return found
    pytest.fail("no tarneeb binary: run `cargo build --release` at the repository root or set TARNEEB_BIN")


@pytest.fixture(scope="session")
def cli():
    return tarneeb_bin()


def run(args, **kw):
    """Runs a command, failing the test with its stderr when it fails."""
    p = subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)
    if p.returncode != 0:
        pytest.fail(f"{' '.join(map(str, args))} exited {p.returncode}:\n{p.stderr}\n{p.stdout}")
    return p.stdout


def bot_python():
    """The interpreter for bots the referee starts: this one, which has the package. Bots run
    in a sandbox with a private /tmp, so an interpreter (a venv) under /tmp is not there."""
    if sys.executable.startswith("/tmp/"):
        pytest.fail(f"{sys.executable} is under /tmp, which sandboxed bots cannot see: make the venv elsewhere")
    return sys.executable
