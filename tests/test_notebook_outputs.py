"""Notebooks are committed without outputs, and the kit's plots display as pictures.

* The committed notebooks (the blobs of ``HEAD`` and of the index, or the files when there is
  no git) carry no outputs: JupyterLab autosaves outputs into the file, and the clean filter
  ``tools/strip_notebook_outputs.py`` (named in ``.gitattributes``, configured by ``./dev.sh``)
  keeps them out of what git stores.
* The filter itself: outputs out, the working file untouched, a clean notebook byte for byte.
* Every figure the lab returns renders as ``image/png`` through IPython's display machinery
  without pyplot (as JupyterLab, Voila and nbval display it), and the notebook check of
  ``conftest.py`` (tagged ``plot`` cells must show a picture; no figure as text) works.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "strip_notebook_outputs.py"
sys.path.insert(0, str(TOOL.parent))
import strip_notebook_outputs as nbstrip  # noqa: E402

GIT = shutil.which("git")


def in_git() -> bool:
    return GIT is not None and subprocess.run([GIT, "-C", str(ROOT), "rev-parse", "--is-inside-work-tree"],
                                              capture_output=True).returncode == 0


def tracked_notebooks() -> list[str]:
    if not in_git():
        return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").rglob("*.ipynb")
                      if ".ipynb_checkpoints" not in p.parts)
    out = subprocess.run([GIT, "-C", str(ROOT), "ls-files", "*.ipynb"], capture_output=True, text=True, check=True)
    return out.stdout.split()


def committed_texts() -> dict[str, str]:
    """Every tracked notebook as git stores it: in ``HEAD`` and in the index (or the file, without git)."""
    texts = {}
    for path in tracked_notebooks():
        if not in_git():
            texts[path] = (ROOT / path).read_text(encoding="utf-8")
            continue
        for where in ("HEAD:", ":"):
            shown = subprocess.run([GIT, "-C", str(ROOT), "show", f"{where}{path}"], capture_output=True)
            if shown.returncode == 0:                   # (a notebook added but not committed has no HEAD blob)
                texts[f"{where}{path}"] = shown.stdout.decode("utf-8")
    return texts


def executed_notebook() -> dict:
    """A notebook as JupyterLab saves it after a run: outputs, counts, widget state, timings."""
    return {
        "cells": [
            {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "# A title\n\nText"},
            {"cell_type": "code", "execution_count": 3, "id": "c1",
             "metadata": {"execution": {"iopub.status.busy": "2025-01-01"}, "tags": ["plot"], "scrolled": True},
             "outputs": [{"output_type": "stream", "name": "stdout", "text": ["hello\n"]},
                         {"output_type": "display_data", "metadata": {},
                          "data": {"image/png": "iVBORw0KGgo=", "text/plain": ["<Figure>"]}}],
             "source": "print('hello')\nfigure"},
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python", "version": "3.11.7", "mimetype": "text/x-python"},
                     "widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}}},
        "nbformat": 4, "nbformat_minor": 5,
    }


# --------------------------------------------------------------------------- committed notebooks

def test_no_committed_notebook_has_outputs():
    texts = committed_texts()
    assert len(texts) >= len(tracked_notebooks()) >= 12
    dirty = [where for where, text in texts.items() if nbstrip.has_outputs(json.loads(text))]
    assert not dirty, f"notebooks committed with outputs (run ./dev.sh once: it installs the filter): {dirty}"


def test_committed_notebooks_pass_through_the_filter_unchanged():
    """A clean notebook is stored byte for byte, so installing the filter changes no file's status."""
    for where, text in committed_texts().items():
        assert nbstrip.clean(text) == text, f"{where} is not as the filter writes it"


def test_the_filter_is_named_for_every_notebook_and_installed_by_dev_sh():
    assert f"*.ipynb filter={nbstrip.FILTER}" in (ROOT / ".gitattributes").read_text(encoding="utf-8").splitlines()
    dev = (ROOT / "dev.sh").read_text(encoding="utf-8")
    setup = dev[dev.index("setup() {"):dev.index("\n}\n", dev.index("setup() {"))]
    assert "python3 tools/strip_notebook_outputs.py --install" in setup
    assert f"filter.{nbstrip.FILTER}.clean" in setup


# --------------------------------------------------------------------------- the filter

def test_the_filter_removes_outputs_counts_widget_state_and_timings():
    cleaned = json.loads(nbstrip.clean(json.dumps(executed_notebook())))
    code = cleaned["cells"][1]
    assert code["outputs"] == [] and code["execution_count"] is None
    assert code["metadata"] == {"tags": ["plot"]}                          # tags stay: the tests read them
    assert code["source"] == ["print('hello')\n", "figure"]
    assert cleaned["metadata"] == {"kernelspec": executed_notebook()["metadata"]["kernelspec"],
                                   "language_info": {"name": "python"}}
    assert not nbstrip.has_outputs(cleaned) and nbstrip.has_outputs(executed_notebook())
    again = nbstrip.clean(nbstrip.clean(json.dumps(executed_notebook())))
    assert again == nbstrip.clean(json.dumps(executed_notebook()))          # idempotent


@pytest.mark.parametrize("text", ["<<<<<<< HEAD\n{\"cells\": []}\n=======\n", "[1, 2]", '{"not": "a notebook"}', ""])
def test_what_is_not_a_notebook_passes_through(text):
    assert nbstrip.clean(text) == text


def test_the_filter_as_a_command_and_its_check(tmp_path):
    raw = json.dumps(executed_notebook())
    out = subprocess.run([sys.executable, str(TOOL)], input=raw.encode(), capture_output=True, check=True)
    assert out.stdout.decode("utf-8") == nbstrip.clean(raw)
    dirty = tmp_path / "dirty.ipynb"
    dirty.write_text(raw, encoding="utf-8")
    check = subprocess.run([sys.executable, str(TOOL), "--check", str(dirty)], capture_output=True, text=True)
    assert check.returncode == 1 and "dirty.ipynb: has outputs" in check.stderr
    dirty.write_text(nbstrip.clean(raw), encoding="utf-8")
    assert subprocess.run([sys.executable, str(TOOL), "--check", str(dirty)]).returncode == 0


@pytest.mark.skipif(GIT is None or shutil.which("python3") is None, reason="needs git and python3")
def test_git_stores_a_notebook_without_its_outputs_once_installed(tmp_path):
    """What ./dev.sh sets up, in a fresh repository: commit a notebook with outputs, and git stores
    it without them while the file keeps them; the status stays clean."""
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    shutil.copy(TOOL, repo / "tools" / TOOL.name)
    shutil.copy(ROOT / ".gitattributes", repo / ".gitattributes")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull}

    def git(*args: str) -> str:
        return subprocess.run([GIT, "-C", str(repo), *args], capture_output=True, text=True, check=True,
                              env=env).stdout

    git("init", "-q")
    subprocess.run([sys.executable, str(repo / "tools" / TOOL.name), "--install", str(repo)], check=True, env=env)
    assert git("config", f"filter.{nbstrip.FILTER}.clean").strip() == "python3 tools/strip_notebook_outputs.py"
    notebook = repo / "play.ipynb"
    notebook.write_text(json.dumps(executed_notebook(), indent=1), encoding="utf-8")
    git("add", "-A")
    git("commit", "-q", "-m", "a notebook")
    stored = json.loads(git("show", "HEAD:play.ipynb"))
    assert not nbstrip.has_outputs(stored) and stored["cells"][1]["outputs"] == []
    assert json.loads(notebook.read_text(encoding="utf-8"))["cells"][1]["outputs"]     # the file keeps them
    assert git("status", "--porcelain") == ""


# --------------------------------------------------------------------------- pictures

def test_the_labs_figures_display_as_pictures_without_pyplot():
    """IPython's display formatter (what JupyterLab, Voila and nbval use) renders each figure the lab
    returns as image/png, in a fresh interpreter where pyplot was never imported."""
    code = textwrap.dedent("""
        import sys
        from IPython.core.interactiveshell import InteractiveShell
        import playtest
        from playtest.lab import interval_plot

        shell = InteractiveShell.instance()
        sweep = playtest.sweep("source", {"first_turn_ap": [1, 2, 3]}, games=4, seed=1, progress=False)
        shown = {
            "sweep.plot": sweep.plot("decisiveness"),
            "interval_plot": interval_plot({"a": 0.1}, {"a": 0.0}, {"a": 0.2}, xlabel="x"),
        }
        assert "matplotlib.pyplot" not in sys.modules
        for name, figure in shown.items():
            data, _ = shell.display_formatter.format(figure)
            assert data["image/png"][:4] == b"\\x89PNG", name
        ticks = [t.get_text() for t in shown["sweep.plot"].axes[0].get_xticklabels()]
        assert ticks == ["1", "2", "3"], ticks
        html, _ = shell.display_formatter.format(sweep)
        assert '<img alt=' in html["text/html"] and "95% interval" in html["text/html"]
        print("ok")
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


NOTEBOOK = """
import json, sys
cells = [
    {{"cell_type": "code", "execution_count": None, "id": "a", "metadata": {{"tags": ["plot"]}}, "outputs": [],
      "source": {source!r}}},
]
print(json.dumps({{"cells": cells, "metadata": {{"kernelspec": {{"name": "python3", "display_name": "Python 3",
                  "language": "python"}}}}, "nbformat": 4, "nbformat_minor": 5}}))
"""


@pytest.mark.parametrize("source, passes", [
    ("from matplotlib.figure import Figure\nfigure = Figure()\nfigure.subplots().plot([1, 2])\nfigure", False),
    ("from playtest.lab import interval_plot\ninterval_plot({'a': 0.1}, {'a': 0.0}, {'a': 0.2})", True),
    ("print('no picture')", False),
])
def test_the_notebook_check_fails_a_plot_cell_without_a_picture(tmp_path, source, passes):
    """nbval runs with the repository's conftest.py: a ``plot`` cell must show image/png."""
    notebook = subprocess.run([sys.executable, "-c", NOTEBOOK.format(source=source)], capture_output=True,
                              text=True, check=True).stdout
    (tmp_path / "check.ipynb").write_text(notebook, encoding="utf-8")
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "pytest", "check.ipynb", "--nbval-lax", "-q", "-p", "no:cacheprovider",
                          "--rootdir", str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, env=env,
                         timeout=300)
    assert (run.returncode == 0) == passes, run.stdout[-2000:]
    if not passes:
        assert "picture" in run.stdout
