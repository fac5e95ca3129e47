#!/usr/bin/env python3
"""A scripted fake UCI engine for the match runner's tests.

It plays the move of a fixed game line at the index given by the number of
moves in the last `position` command, so both engines of a match can run the
same line whatever colour they have. Options make it misbehave at a given
ply (the index of the move it is asked for):

  --name N            id name
  --moves "m1 m2 .."  the scripted line (an illegal move in it tests illegal moves)
  --think-ms T        think T ms before answering (answers at once on `stop`)
  --crash-at P        exit with status 3 when asked for move P
  --hang-at P         never answer when asked for move P (ignores `stop` too)
  --garbage-at P      answer `bestmove xyzzy!` at move P
  --binary-at P       answer with bytes that are not UTF-8 at move P
  --spam-at P         at move P, write info lines forever and never answer
  --no-uciok          never send uciok
  --no-readyok-after-newgame   ignore `isready` once `ucinewgame` was sent
  --log FILE          append every command received to FILE
"""

import argparse
import os
import select
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="Fake")
    ap.add_argument("--moves", default="")
    ap.add_argument("--think-ms", type=int, default=0)
    ap.add_argument("--crash-at", type=int, default=-1)
    ap.add_argument("--hang-at", type=int, default=-1)
    ap.add_argument("--garbage-at", type=int, default=-1)
    ap.add_argument("--binary-at", type=int, default=-1)
    ap.add_argument("--spam-at", type=int, default=-1)
    ap.add_argument("--no-uciok", action="store_true")
    ap.add_argument("--no-readyok-after-newgame", action="store_true")
    ap.add_argument("--log", default=None)
    a = ap.parse_args()
    script = a.moves.split()
    out = sys.stdout.buffer
    log = open(a.log, "a") if a.log else None
    buf = b""

    def say(text):
        out.write(text.encode() + b"\n")
        out.flush()

    def read_line(timeout=None):
        """The next input line; None at end of input; "" on timeout."""
        nonlocal buf
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in buf:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([0], [], [], wait)
            if not ready:
                return ""
            chunk = os.read(0, 4096)
            if not chunk:
                return None
            buf += chunk
        line, buf = buf.split(b"\n", 1)
        text = line.decode().strip()
        if log:
            log.write(text + "\n")
            log.flush()
        return text

    say("Fake UCI engine for tests (a banner line the runner must ignore)")
    ply = 0
    newgame = False
    while True:
        line = read_line()
        if line is None:
            return
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            say("id name " + a.name)
            say("id author tests")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name UCI_Variant type combo default chess var chess")
            say("option name ItaTimeMode type combo default peaceful var peaceful var easy")
            if not a.no_uciok:
                say("uciok")
        elif cmd == "isready":
            if not (a.no_readyok_after_newgame and newgame):
                say("readyok")
        elif cmd == "ucinewgame":
            newgame = True
        elif cmd == "position":
            ply = len(words) - words.index("moves") - 1 if "moves" in words else 0
        elif cmd == "go":
            if ply == a.crash_at:
                sys.exit(3)
            if ply == a.hang_at:
                while read_line() is not None:
                    pass
                return
            if ply == a.spam_at:
                while True:
                    say("info string spam spam spam spam spam spam spam spam")
            say("info depth 1 score cp 0 nodes 1 pv a1a1")
            if a.think_ms > 0:
                end = time.monotonic() + a.think_ms / 1000.0
                while True:
                    left = end - time.monotonic()
                    if left <= 0:
                        break
                    got = read_line(left)
                    if got is None:
                        return
                    if got == "stop":
                        break
            if ply == a.garbage_at:
                say("bestmove xyzzy!")
            elif ply == a.binary_at:
                out.write(b"bestmove \xff\xfe\x80\n")
                out.flush()
            else:
                say("bestmove " + (script[ply] if ply < len(script) else "0000"))
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
