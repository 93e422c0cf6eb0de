"""A test bot that misbehaves on every EVERY-th request (and plays index 0 otherwise).

Usage: fault_bot.py MODE EVERY, MODE one of
  slow     answer after the time left has run out (then go on as if nothing happened)
  crash    exit with status 3
  lie      claim to play a card it does not hold (a move that is not legal)
  illegal  answer an index past the end of the legal moves
  garbage  print a line that is not JSON, then answer nothing for this request
  junk     print JSON that is not an ActResponse
  silent   print an ActResponse with neither index nor move
"""

import json
import sys
import time

RANKS = "A234567JQK"
SUITS = "SHDC"


def main() -> None:
    mode, every = sys.argv[1], int(sys.argv[2])
    for n, line in enumerate(sys.stdin, 1):
        request = json.loads(line)
        answer: object = {"index": 0}
        if n % every == 0:
            if mode == "slow":
                left = float(request.get("timeLeft", "0s").rstrip("s"))
                time.sleep(left + 0.3)
            elif mode == "crash":
                sys.exit(3)
            elif mode == "lie":
                held = set(request["view"].get("maraffa", {}).get("hand", []))
                cards = [f"CARD_{r}{s}" for s in SUITS for r in RANKS]
                card = next(c for c in cards if c not in held)
                answer = {"move": {"maraffa": {"playCard": {"card": card}}}}
            elif mode == "illegal":
                answer = {"index": len(request.get("legalMoves", [])) + 3}
            elif mode == "garbage":
                answer = None
                sys.stdout.write("thinking... I will play the ace\n")
            elif mode == "junk":
                answer = {"play": "ace"}
            elif mode == "silent":
                answer = {}
        if answer is not None:
            sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
