#!/usr/bin/env python3
"""Keep notebook outputs out of commits: a git *clean* filter for ``*.ipynb`` (standard library only).

JupyterLab autosaves every output into the notebook file. With this filter, ``git add``
stores the notebook without them: no outputs, no execution counts, no saved widget state,
no per-cell execution timings, and ``language_info`` cut to the language's name. The file
in the working tree keeps its outputs (the filter only changes what git stores), and a
notebook already without outputs passes through byte for byte (as ``nbformat`` writes
it: one-space indent, sorted keys, a final newline).

``./dev.sh`` installs it (``.gitattributes`` names it for ``*.ipynb``)::

    python3 tools/strip_notebook_outputs.py --install      # git config filter.notebook-outputs.*

As a filter it reads a notebook on stdin and writes it on stdout; anything that is not a
notebook (a merge conflict, a half-written file) passes through unchanged, so ``git add``
never fails because of it. ``--check FILE ...`` exits 1 naming every file with outputs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

FILTER = "notebook-outputs"
#: cell metadata JupyterLab writes about a run or the view, not about the notebook
VOLATILE_CELL_METADATA = ("execution", "collapsed", "scrolled", "ExecuteTime")


def strip(notebook: dict[str, Any]) -> dict[str, Any]:
    """The notebook without outputs (changed in place, and returned)."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        metadata = cell.get("metadata")
        if isinstance(metadata, dict):
            for key in VOLATILE_CELL_METADATA:
                metadata.pop(key, None)
        if isinstance(cell.get("source"), str):           # nbformat stores source as a list of lines
            cell["source"] = cell["source"].splitlines(True)
    metadata = notebook.get("metadata")
    if isinstance(metadata, dict):
        metadata.pop("widgets", None)                      # saved widget state: an output too
        info = metadata.get("language_info")
        if isinstance(info, dict) and "name" in info:
            metadata["language_info"] = {"name": info["name"]}
    return notebook


def has_outputs(notebook: dict[str, Any]) -> bool:
    """Whether a notebook carries anything :func:`strip` removes."""
    before = json.dumps(notebook, sort_keys=True)
    return json.dumps(strip(json.loads(before)), sort_keys=True) != before


def dumps(notebook: dict[str, Any]) -> str:
    """The notebook as ``nbformat`` (and JupyterLab) writes it."""
    return json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def clean(text: str) -> str:
    """The filter: ``text`` without outputs, or unchanged when it is not a notebook."""
    try:
        notebook = json.loads(text)
    except ValueError:
        return text
    if not isinstance(notebook, dict) or "cells" not in notebook or not isinstance(notebook["cells"], list):
        return text
    return dumps(strip(notebook))


def install(repo: str = ".") -> None:
    """Configure the filter in the git repository at ``repo`` (what ``./dev.sh`` runs)."""
    command = "python3 tools/strip_notebook_outputs.py"      # git runs it from the top of the work tree
    for key, value in ((f"filter.{FILTER}.clean", command), (f"filter.{FILTER}.smudge", "cat")):
        subprocess.run(["git", "-C", repo, "config", key, value], check=True)



def main(argv: list[str]) -> int:
    if argv[:1] == ["--install"]:
        install(argv[1] if len(argv) > 1 else ".")
        return 0
    if argv[:1] == ["--check"]:
        dirty = []
        for path in argv[1:]:
            with open(path, encoding="utf-8") as handle:
                if has_outputs(json.load(handle)):
                    dirty.append(path)
        for path in dirty:
            print(f"{path}: has outputs or run state (commit it through the filter: ./dev.sh sets it up)", file=sys.stderr)
        return 1 if dirty else 0
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        sys.stdout.buffer.write(data)
        return 0
    sys.stdout.buffer.write(clean(text).encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
