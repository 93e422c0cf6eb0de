"""A test bot that misbehaves on every EVERY-th request (and plays index 0 otherwise).

Usage: fault_bot.py MODE EVERY, MODE one of
  slow     answer after the time left has run out (then go on as if nothing happened)
  late     answer every request well after its time left has run out (0.5 s), so
           requests pile up in its (small) input pipe
  never    go on reading requests but never answer again
  deaf     stop reading requests (and answering): sleep with a full input pipe
  crash    exit with status 3
  signal   die by SIGKILL
  lie      claim to play a card it does not hold (a move that is not legal)
  illegal  answer an index past the end of the legal moves
  garbage  print a line that is not JSON, then answer nothing for this request
  junk     print JSON that is not an ActResponse
  silent   print an ActResponse with neither index nor move
  long     print one line of 50 MB
  flood    print a thousand lines nobody asked for, then answer
  close    close stdout and go on reading, never exiting
  hold     start a child that keeps stdout open, then exit
  setsid   start a child in a session of its own (a daemon) at once, then play well;
           with a third argument "crash", exit with status 3 at the EVERY-th request

If FAULT_BOT_PIDS names a file, the bot appends its pid, and those of the children
it starts, one per line, so a test can check that none outlives the referee.
"""

import json
import os
import signal
import subprocess
import sys
import time

RANKS = "A234567JQK"
SUITS = "SHDC"
F_SETPIPE_SZ = 1031


def note_pid(pid: int) -> None:
    path = os.environ.get("FAULT_BOT_PIDS")
    if path:
        with open(path, "a") as out:
            out.write(f"{pid}\n")


def sleeper(**kw: object) -> subprocess.Popen[bytes]:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], **kw)  # type: ignore[call-overload]
    note_pid(child.pid)
    return child


def main() -> None:
    mode, every = sys.argv[1], int(sys.argv[2])
    then = sys.argv[3] if len(sys.argv) > 3 else ""
    note_pid(os.getpid())
    if mode in ("deaf", "late"):
        # The smallest pipe the kernel gives: a request or two fill it.
        try:
            import fcntl

            fcntl.fcntl(0, F_SETPIPE_SZ, 4096)
        except OSError:
            pass
    if mode == "setsid":
        sleeper(start_new_session=True, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    for n, line in enumerate(sys.stdin, 1):
        request = json.loads(line)
        left = float(request.get("timeLeft", "0s").rstrip("s"))
        answer: object = {"index": 0}
        if mode == "late":
            time.sleep(left + 0.5)
        elif mode == "never" and n >= every:
            continue
        elif n % every == 0:
            if mode == "slow":
                time.sleep(left + 0.3)
            elif mode in ("crash",) or (mode == "setsid" and then == "crash"):
                sys.exit(3)
            elif mode == "signal":
                os.kill(os.getpid(), signal.SIGKILL)
            elif mode == "deaf":
                time.sleep(600)
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
            elif mode == "long":
                answer = None
                sys.stdout.write('{"index": 0, "pad": "' + "x" * (50 << 20) + '"}\n')
            elif mode == "flood":
                sys.stdout.write("{}\n" * 1000)
            elif mode == "close":
                sys.stdout.flush()
                os.close(1)
                for _ in sys.stdin:
                    pass
                time.sleep(600)
            elif mode == "hold":
                sleeper()  # inherits stdout
                sys.exit(0)
        if answer is not None:
            sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
