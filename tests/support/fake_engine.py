"""A deliberately broken engine for the compliance tests: it answers the
handshake and isready, but its bestmove is never legal, it sends a second
bestmove after each go, and its info lines carry fractions."""

import sys


def main() -> None:
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name Broken\nid author Nobody\nuciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            print("info depth 1.5 score cp 0.25", flush=True)
            print("bestmove z\nbestmove z", flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
