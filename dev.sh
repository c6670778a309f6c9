#!/usr/bin/env bash
# The two ways in, both set up ./.venv on first use (and again when pyproject.toml changes):
#   ./dev.sh lab    open JupyterLab on notebooks/
#   ./dev.sh test   run the whole test suite (rules, widgets, notebooks, browser); extra args go to pytest
#   ./dev.sh lite   build the serverless site (JupyterLite) into build/lite-site from the package
#                   registries alone (PyPI, npm); extra args go to python -m playtest.lite (--out DIR)
# Browser tests need Chromium (/usr/bin/chromium or $PLAYTEST_CHROMIUM); without it they skip,
# unless PLAYTEST_REQUIRE_BROWSER is set (CI sets it), then they fail.
set -euo pipefail
cd "$(dirname "$0")"
venv="${PLAYTEST_VENV:-.venv}"

setup() {
  if [ ! -x "$venv/bin/python" ]; then
    echo "Setting up $venv (first run only)..." >&2
    python3 -m venv "$venv"
  fi
  local stamp="$venv/.playtest-installed"
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e ".[lab,test,interop]"
    touch "$stamp"
  fi
  # The kit's server setting (playtest/server.py) is enabled by a file in jupyter_server_config.d, which
  # a wheel install puts in place and an editable install does not: put it there for this venv too.
  local conf="$venv/etc/jupyter/jupyter_server_config.d"
  mkdir -p "$conf"
  cmp -s playtest/jupyter_config/jupyter_server_config.d/playtest.json "$conf/playtest.json" ||
    cp playtest/jupyter_config/jupyter_server_config.d/playtest.json "$conf/playtest.json"
  # JupyterLab autosaves outputs into the notebooks: git stores them without (.gitattributes names the filter)
  if command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
     [ "$(git config filter.notebook-outputs.clean || true)" != "python3 tools/strip_notebook_outputs.py" ]; then
    python3 tools/strip_notebook_outputs.py --install
  fi
}

case "${1:-}" in
  lab)
    setup
    shift
    # playtest.server (enabled by the config file above): Nagle's algorithm off on kernel websockets,
    # so board clicks answer at once
    # (in a container that runs as root, as many do, JupyterLab refuses to start without --allow-root)
    if [ "$(id -u)" = 0 ]; then set -- --allow-root "$@"; fi
    exec "$venv/bin/python" -m jupyter lab --notebook-dir=notebooks "$@"
    ;;
  test)
    setup
    shift
    exec "$venv/bin/python" -m pytest "$@"
    ;;
  lite)
    setup
    shift
    exec "$venv/bin/python" -m playtest.lite "$@"
    ;;
  *)
    echo "usage: ./dev.sh lab | ./dev.sh test [pytest args] | ./dev.sh lite [--out DIR]" >&2
    exit 2
    ;;
esac
