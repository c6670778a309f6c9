"""Installed as users install it (issue 28): ``pip install playtest-kit``, then ``jupyter lab``.

The distribution is ``playtest-kit`` (the name ``playtest`` on PyPI is another project); the import
name is ``playtest``. The kit's server setting (:mod:`playtest.server`, no Nagle delay on kernel
websockets) comes with the wheel: ``etc/jupyter/jupyter_server_config.d/playtest.json`` enables
``playtest.server`` as a server extension, which sets the connection class when a server starts.

The server test starts a Jupyter server from an environment where the built wheel is installed:
``PLAYTEST_WHEEL_PYTHON`` (CI's ``.ci/wheel`` builds it and runs the wheel's smoke test there), or
else one built here the same way (``.ci/wheel``: pip wheel, a fresh virtual environment, a real
install from the package registry; a minute or two). ``-m "not install"`` leaves these out.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:        # Python 3.10: pip carries the same parser
    from pip._vendor import tomli as tomllib    # type: ignore[no-redef]

pytestmark = pytest.mark.install

REPO = Path(__file__).resolve().parents[1]

SERVER = r"""
import json, sys
from jupyter_server.serverapp import ServerApp
app = ServerApp()
app.initialize(sys.argv[1:])
cls = app.web_app.settings["kernel_websocket_connection_class"]
print(json.dumps({"class": f"{cls.__module__}.{cls.__qualname__}", "port": app.port,
                  "extensions": sorted(k for k, on in app.jpserver_extensions.items() if on)}), flush=True)
app.start()
"""


def test_the_distribution_is_playtest_kit_importing_playtest():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "playtest-kit" and project["requires-python"] == ">=3.10"
    versions = [c.rsplit(" :: ", 1)[1] for c in project["classifiers"] if c.startswith("Programming Language :: Python :: 3.")]
    assert versions == ["3.10", "3.11", "3.12", "3.13"]
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["data-files"]
    shipped = data["etc/jupyter/jupyter_server_config.d"]
    assert [json.loads((REPO / f).read_text())["ServerApp"]["jpserver_extensions"] for f in shipped] == [
        {"playtest.server": True}]


@pytest.fixture(scope="module")
def installed_python(tmp_path_factory) -> str:
    given = os.environ.get("PLAYTEST_WHEEL_PYTHON", "").strip()
    if given:
        assert Path(given).is_file(), f"PLAYTEST_WHEEL_PYTHON={given} is not a file"
        return given
    done = subprocess.run([str(REPO / ".ci" / "wheel"), str(tmp_path_factory.mktemp("wheel"))],
                          capture_output=True, text=True, timeout=1500,
                          env={**os.environ, "PLAYTEST_PYTHON": os.environ.get("PLAYTEST_PYTHON", "python3")})
    assert done.returncode == 0, f".ci/wheel failed:\n{done.stderr[-4000:]}"
    return done.stdout.strip().splitlines()[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("own_setting", [False, True])
def test_a_plain_jupyter_server_from_the_installed_wheel_uses_the_no_delay_connection(installed_python, tmp_path,
                                                                                      own_setting):
    """No option, no user config: the installed config file enables the extension and the server's
    kernel websockets use the no-delay class. A server configured with a class of its own keeps it."""
    prefix = Path(installed_python).parent.parent
    assert (prefix / "etc" / "jupyter" / "jupyter_server_config.d" / "playtest.json").is_file()
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "PYTHONPATH", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), JUPYTER_CONFIG_DIR=str(home / ".jupyter"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTER_PLATFORM_DIRS="1")
    port, token = _free_port(), "playtest-install-test"
    stock = "jupyter_server.services.kernels.connection.channels.ZMQChannelsWebsocketConnection"
    argv = ["--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            "--ServerApp.open_browser=False", "--ServerApp.allow_root=True", f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={tmp_path}"]
    if own_setting:
        argv.append(f"--ServerApp.kernel_websocket_connection_class={stock}")
    proc = subprocess.Popen([installed_python, "-c", SERVER, *argv], cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        line = proc.stdout.readline()                                      # type: ignore[union-attr]
        assert line, f"the server did not start:\n{proc.stderr.read()[-3000:]}"   # type: ignore[union-attr]
        seen = json.loads(line)
        assert "playtest.server" in seen["extensions"]
        assert seen["class"] == (stock if own_setting else "playtest.server.NoDelayKernelWebsocketConnection")
        deadline = time.monotonic() + 60
        while True:                                                    # and it serves
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=5) as r:
                    assert r.status == 200 and "started" in json.loads(r.read())
                break
            except OSError:
                assert proc.poll() is None, f"the server stopped:\n{proc.stderr.read()[-3000:]}"  # type: ignore
                assert time.monotonic() < deadline, "the server does not answer"
                time.sleep(0.2)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
