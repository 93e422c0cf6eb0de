#!/usr/bin/env python3
"""My first Mazzo bot: `mazzo match --bot "exec:python3 examples/first_bot/bot.py"`.

The referee writes one request per line on stdin; the bot answers one line on stdout.
"""

import json
import sys

for line in sys.stdin:  # one request per line; stdin closes when the run ends
    request = json.loads(line)
    moves = request.get("legalMoves", [])  # fields equal to their default are left out
    # Never a Maraffa claim: a wrong one loses the match at once.
    safe = [i for i, move in enumerate(moves) if "claim" not in move.get("maraffa", {})]
    answer = {"index": safe[0] if safe else 0}  # the first safe legal move
    print(json.dumps(answer), flush=True)  # flush: the referee is waiting for this line
    print(f"seat {request.get('seat', 0)}: move {answer['index']}", file=sys.stderr)
