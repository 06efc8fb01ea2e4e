"""``python -m engine replay FILE|-``: replay a hand record and print the verdicts as JSON."""

from __future__ import annotations

import json
import sys

from engine.replay import replay_text

USAGE = "usage: python -m engine replay FILE|-"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "replay":
        print(json.dumps({"error": "bad_record", "message": USAGE}))
        return 2
    source = argv[1]
    try:
        if source == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        print(json.dumps({"error": "bad_record", "message": f"cannot read {source}: {error}"}))
        return 2
    code, output = replay_text(text)
    print(output)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
