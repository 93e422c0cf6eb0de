#!/usr/bin/env python3
"""A complete Mazzo bot for `mazzo match --bot exec:...`, with no gRPC and no protobuf.

The referee writes one ActRequest per line on stdin (proto3 JSON) and reads one
ActResponse per line from stdout. Logs go to stderr; stdout is for answers only.
"""

import json
import random
import sys


def choose(request: dict) -> int:
    moves = request.get("legalMoves", [])
    seat = request.get("seat", 0)  # proto3 JSON leaves out zeros: default them
    # Never a Maraffa claim: a false one loses the game at once.
    safe = [i for i, m in enumerate(moves) if "claim" not in m.get("maraffa", {})]
    # Prefer plain plays (no signal) when there are any.
    plain = [i for i in safe if "signal" not in moves[i].get("maraffa", {}).get("playCard", {})]
    pick = random.choice(plain or safe or range(len(moves)))
    print(
        f"seat {seat}: {len(moves)} legal moves, time left {request.get('timeLeft')}",
        file=sys.stderr,
    )
    return pick


def main() -> None:
    random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    for line in sys.stdin:  # one request per line; the referee closes stdin at the end
        answer = {"index": choose(json.loads(line))}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()  # the referee is waiting for this line


if __name__ == "__main__":
    main()
