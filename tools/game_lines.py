"""Each game's size in lines, now and at an earlier revision (issue 22 asks for the figures).

    python tools/game_lines.py [--against REV]

Two counts a game: every line of its modules (``wc -l``), and its code lines: lines that hold a
token of code, so not blank lines, comments or docstrings (a string that is a whole statement).
With ``--against REV`` (default ``b5379ed``, the last revision before the declared kernel) the
same counts are taken from ``git show REV:path`` and printed beside today's, with the change.

A game is the package ``playtest/games/<name>/`` or the module ``playtest/examples/<name>.py``;
at an earlier revision a game that was one module (``playtest/games/<name>.py``) is counted so.
The last column gives today's lines without ``playout.py``: a game's optional second reading of
its rules for random play on a compact form (``Game.random_playout``, for the lab and MCTS),
counted in the game's lines like every module but shown apart, since it is there for speed.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("eat_thyself", "source", "then_there_was_one", "corner_rush", "back_to_the_wall")
EXAMPLES = ("secret_bid",)
SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
        tokenize.ENDMARKER}


def code_lines(source: str) -> int:
    """Lines holding code: no blank lines, comments or docstrings.

    >>> code_lines('\"\"\"Doc.\"\"\"\\n\\n# note\\nx = 1  # one\\ny = (\\n    2)\\n')
    3
    """
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    lines: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.type in SKIP:
            continue
        if tok.type == tokenize.STRING:
            j = i - 1
            while j >= 0 and tokens[j].type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT,
                                                tokenize.DEDENT):
                j -= 1
            statement_start = j < 0 or tokens[j].type == tokenize.NEWLINE or tokens[j].string == ":"
            if statement_start and tokens[i + 1].type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                continue
        lines.update(range(tok.start[0], tok.end[0] + 1))
    return len(lines)


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True,
                          text=True).stdout


PLAYOUT = "playout.py"


def sources(name: str, rev: str | None, playout: bool = True) -> list[str]:
    """The texts of a game's modules, in the working tree (``rev`` None) or at a revision
    (``playout=False``: without its ``playout.py``, in the working tree)."""
    folder = "examples" if name in EXAMPLES else "games"
    package, module = f"playtest/{folder}/{name}", f"playtest/{folder}/{name}.py"
    if rev is None:
        path = ROOT / package
        files = sorted(path.glob("*.py")) if path.is_dir() else [ROOT / module]
        return [f.read_text() for f in files if playout or f.name != PLAYOUT]
    listed = _git("ls-tree", "-r", "--name-only", rev, "--", package, module).split()
    return [_git("show", f"{rev}:{p}") for p in listed if p.endswith(".py")]


def counts(name: str, rev: str | None, playout: bool = True) -> tuple[int, int]:
    """(all lines, code lines) of a game."""
    texts = sources(name, rev, playout)
    return sum(t.count("\n") for t in texts), sum(code_lines(t) for t in texts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="b5379ed", help="the revision to compare with")
    args = parser.parse_args(argv)
    print(f"| game | lines at {args.against} | lines now | change | code lines at {args.against} "
          "| code lines now | change | lines now without playout.py |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    totals = [0, 0, 0, 0, 0]
    for name in GAMES + EXAMPLES:
        (old, old_code), (new, new_code) = counts(name, args.against), counts(name, None)
        bare = counts(name, None, playout=False)[0]
        if name in GAMES:
            for k, v in enumerate((old, new, old_code, new_code, bare)):
                totals[k] += v
        print(f"| {name} | {old:,} | {new:,} | {(new - old) / old:+.0%} | {old_code:,} | "
              f"{new_code:,} | {(new_code - old_code) / old_code:+.0%} | {bare:,} ({(bare - old) / old:+.0%}) |")
    old, new, old_code, new_code, bare = totals
    print(f"| the five games | {old:,} | {new:,} | {(new - old) / old:+.0%} | {old_code:,} | "
          f"{new_code:,} | {(new_code - old_code) / old_code:+.0%} | {bare:,} ({(bare - old) / old:+.0%}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
