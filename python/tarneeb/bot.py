"""Run a protocol bot (protocol.md) from one decision function.

::

    import tarneeb.bot

    def choose(request):
        return request["legal"][0]

    tarneeb.bot.run(choose, name="first-legal")

:func:`run` answers ``hello`` and ``new_game`` (declaring ``multi_game``), calls ``choose`` for
every ``request`` and writes its move with the request's ``id``, flushing every line; all other
messages go to ``on_event`` if given. ``choose`` gets the request dict with the game's ``rules``,
``seat`` and ``seed`` from the handshake added (protocol.md, section 4). Log with :func:`log`:
stdout is the protocol, stderr is the referee's log of the bot.
"""

import json
import sys
import traceback
from typing import Any, Callable, Dict, Optional, TextIO

__all__ = ["run", "log"]


def log(*parts: Any) -> None:
    """Writes one line to stderr (the referee keeps it beside the game record)."""
    print(*parts, file=sys.stderr, flush=True)


def run(
    choose: Callable[[Dict[str, Any]], str],
    name: str = "python-bot",
    version: str = "1.0",
    multi_game: bool = True,
    on_event: Optional[Callable[[Dict[str, Any]], None]] = None,
    on_new_game: Optional[Callable[[Dict[str, Any]], None]] = None,
    stdin: Optional[TextIO] = None,
    stdout: Optional[TextIO] = None,
) -> None:
    """Speaks the protocol on stdin/stdout until the input ends.

    ``choose(request) -> move`` must return one of ``request["legal"]``; if it raises or returns
    something else, the error goes to stderr and the first legal move is played instead (a bot
    that answers keeps its seat). ``on_new_game(hello)`` runs at each ``hello``/``new_game``
    (reset per-game state there); ``on_event(message)`` gets ``deal``, ``move``, ``trick``,
    ``hand_end``, ``fault`` and ``game_end``.
    """
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    game: Dict[str, Any] = {}

    def send(message: Dict[str, Any]) -> None:
        out.write(json.dumps(message, separators=(",", ":")) + "\n")
        out.flush()

    for line in inp:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            log(f"tarneeb.bot: skipped a line that is not JSON: {line[:80]!r}")
            continue
        kind = message.get("type")
        if kind in ("hello", "new_game"):
            game = {k: message.get(k) for k in ("rules", "seat", "seed", "time")}
            if on_new_game is not None:
                on_new_game(message)
            reply = {"type": "hello", "name": name, "version": version}
            if multi_game:
                reply["multi_game"] = True
            send(reply)
        elif kind == "request":
            legal = message.get("legal") or []
            request = dict(message)
            for k, v in game.items():
                request.setdefault(k, v)
            try:
                move = choose(request)
            except Exception:  # a bot's bug must not cost its seat
                log("tarneeb.bot: choose() raised; playing the first legal move:\n" + traceback.format_exc())
                move = legal[0] if legal else None
            if move not in legal:
                log(f"tarneeb.bot: choose() returned {move!r}, not a legal move; playing {legal[:1]}")
                move = legal[0] if legal else move
            send({"type": "move", "id": message["id"], "move": move})
        elif on_event is not None:
            on_event(message)
        if kind == "game_end" and not multi_game:
            return
