#!/usr/bin/env python3
"""Writes terminal escape sequences where the referee prints bot text (tests/quick/terminal_text.rs).

    escape_bot.py name     hello name with an escape sequence and a forged result line
    escape_bot.py stderr   a clipboard write (OSC 52) and a screen clear on stderr, then a crash
    escape_bot.py reply    a reply line holding escape sequences (not JSON: a fault quoting it)
"""

import json
import sys

MODE = sys.argv[1]
EVIL = "\x1b]52;c;cHduZWQ=\x07\x1b[2J\rwinner: team 9 by forgery"


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] in ("hello", "new_game"):
            name = "evil" + EVIL if MODE == "name" else "escape"
            print(json.dumps({"type": "hello", "name": name}), flush=True)
        elif message["type"] == "request":
            if MODE == "stderr":
                sys.stderr.write(EVIL + "\n")
                sys.stderr.flush()
                sys.exit(3)
            if MODE == "reply":
                sys.stdout.write(EVIL + "\n")
                sys.stdout.flush()
                continue
            print(json.dumps({"type": "move", "id": message["id"], "move": message["legal"][0]}), flush=True)


if __name__ == "__main__":
    main()
