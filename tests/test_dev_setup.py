"""The README's ``./dev.sh`` environment has what a wheel install has (issue 28).

An editable install (``pip install -e``) does not put the wheel's data files in the environment,
so ``./dev.sh`` puts the kit's server setting (``jupyter_server_config.d/playtest.json``, which
enables :mod:`playtest.server`: board clicks answer without Nagle's delay) there itself. Then
``jupyter lab`` or ``voila`` started from ``.venv`` by hand have it too, not only ``./dev.sh lab``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "playtest" / "jupyter_config" / "jupyter_server_config.d" / "playtest.json"


@pytest.mark.skipif(not (Path(sys.prefix) / ".playtest-installed").exists(),
                    reason="not running in an environment ./dev.sh set up")
def test_the_dev_environment_enables_the_kits_server_setting():
    installed = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / "playtest.json"
    assert installed.exists(), f"{installed} is missing: ./dev.sh did not put the server setting in place"
    assert json.loads(installed.read_text()) == json.loads(SHIPPED.read_text())
    assert json.loads(SHIPPED.read_text())["ServerApp"]["jpserver_extensions"] == {"playtest.server": True}


def test_the_license_ships_with_the_distribution():
    try:
        import tomllib
    except ModuleNotFoundError:        # Python 3.10: pip carries the same parser
        from pip._vendor import tomli as tomllib    # type: ignore[no-redef]
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (REPO / "LICENSE").read_text().startswith("MIT License")
