"""The serverless site's build check and tester links (issue 25, point 1); the build itself runs in
tests/browser/test_lite_site.py, and the site is played there offline."""

from __future__ import annotations

import json

import pytest

import playtest
from playtest.lite import build as lite


def fake_site(tmp_path, *, pyodide_url="./static/pyodide/pyodide.mjs", wheel_url="https://files.pythonhosted.org/p/x.whl",
              lock_file="../../static/pyodide-lock/playtest_kit-0.1.0-py3-none-any.whl", fallback=True,
              log="", extensions=("@jupyter-widgets/jupyterlab-manager", "anywidget",
                                  "@jupyterlite/pyodide-kernel-extension")):
    out, work = tmp_path / "out", tmp_path / "lite"
    (out / "static" / "pyodide-lock").mkdir(parents=True)
    (out / "static" / "pyodide").mkdir(parents=True)
    (out / "files" / "testers").mkdir(parents=True)
    for game in playtest.games():
        (out / "files" / "testers" / f"{game}.ipynb").write_text("{}")
    (out / "static" / "pyodide-lock" / "playtest_kit-0.1.0-py3-none-any.whl").write_bytes(b"wheel")
    packages = {name: {"file_name": lock_file if name == "playtest-kit" else
                       f"../../static/pyodide-lock/playtest_kit-0.1.0-py3-none-any.whl"}
                for name in ("playtest-kit", "ipywidgets", "anywidget", "micropip", "pyodide-kernel")}
    (out / "static" / "pyodide-lock" / "pyodide-lock.json").write_text(json.dumps({"packages": packages}))
    kernel = {"pyodideUrl": pyodide_url, "disablePyPIFallback": fallback,
              "loadPyodideOptions": {"lockFileURL": "./static/pyodide-lock/pyodide-lock.json"},
              "pipliteUrls": ["./extensions/x/all.json"]}
    config = {"jupyter-config-data": {"litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": kernel},
                                      "federated_extensions": [{"name": n} for n in extensions]}}
    (out / "jupyter-lite.json").write_text(json.dumps(config))
    pylock = work / ".cache" / "pyodide-lock" / "_work" / "pylock.toml"
    pylock.parent.mkdir(parents=True)
    pylock.write_text(f'[[packages]]\nname = "x"\nwheels = [{{ url = "{wheel_url}" }}]\n')
    (tmp_path / "build.log").write_text(log)
    return out, work, tmp_path / "build.log"


def test_a_site_built_from_the_registries_alone_passes(tmp_path):
    found = lite.check_site(*fake_site(tmp_path))
    assert found["hosts"] == ["files.pythonhosted.org", "registry.npmjs.org"]
    assert "playtest-kit" in found["packages"] and found["tester_views"] == sorted(playtest.games())


@pytest.mark.parametrize("change, said", [
    ({"wheel_url": "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/traitlets.whl"}, "downloaded from cdn.jsdelivr.net"),
    ({"pyodide_url": "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/pyodide.mjs"}, "points outside the site"),
    ({"lock_file": "https://cdn.jsdelivr.net/pyodide/x.whl"}, "is not in the site"),
    ({"fallback": False}, "fall back to PyPI"),
    ({"log": ".  post_init:jupyterlite-pyodide-kernel-pyodide:fetch:pyodide-0.27.tar.bz2\n"}, "JupyterLite fetched"),
    ({"extensions": ("anywidget",)}, "lacks the front end @jupyter-widgets/jupyterlab-manager"),
])
def test_anything_from_elsewhere_fails_the_build(tmp_path, change, said):
    with pytest.raises(lite.LiteBuildError, match=said):
        lite.check_site(*fake_site(tmp_path, **change))


def test_tester_links_for_the_three_ways():
    site = playtest.tester_link(game="corner_rush", via="lite", base_url="https://me.github.io/kit/")
    assert site.startswith("https://me.github.io/kit/repl/index.html?kernel=python&showBanner=0&hideCodeInput=1&code=")
    assert "TesterView%28%27corner_rush%27" in site and "sessions%2Ftesters" in site
    assert playtest.tester_link(via="lite", base_url="https://me.github.io/kit") == \
        "https://me.github.io/kit/lab/index.html?path=00_start_here.ipynb"
    assert playtest.tester_link(game="source", via="local", base_url="http://10.0.0.5:8888/") == \
        "http://10.0.0.5:8888/voila/render/testers/source.ipynb"
    assert playtest.tester_link(game="source", view="lab", via="local").endswith("/lab/tree/source.ipynb")
    for bad in (None, "me.github.io/kit", "javascript:alert(1)", "https://a.b/?x=<script>", "ftp://a.b/"):
        with pytest.raises(ValueError, match="base_url"):
            playtest.tester_link(game="source", via="lite", base_url=bad)
    with pytest.raises(ValueError, match="via is"):
        playtest.tester_link("a/b", via="carrier pigeon")
    with pytest.raises(ValueError, match="unknown game"):
        playtest.tester_link(game="chess", via="lite", base_url="https://a.b")


def test_a_wheel_that_does_not_match_its_lock_hash_fails_the_build(tmp_path):
    import hashlib
    out, work, log = fake_site(tmp_path)
    lock_path = out / "static" / "pyodide-lock" / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    lock["packages"]["playtest-kit"]["sha256"] = hashlib.sha256(b"wheel").hexdigest()
    lock_path.write_text(json.dumps(lock))
    lite.check_site(out, work, log)
    lock["packages"]["playtest-kit"]["sha256"] = hashlib.sha256(b"another wheel").hexdigest()
    lock_path.write_text(json.dumps(lock))
    with pytest.raises(lite.LiteBuildError, match="does not match its hash"):
        lite.check_site(out, work, log)


def test_front_end_only_packages_are_left_out_of_what_the_browser_kernel_loads(tmp_path):
    out, _work, _log = fake_site(tmp_path)
    lock_path = out / "static" / "pyodide-lock" / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    lock["packages"]["ipywidgets"]["depends"] = ["comm", "widgetsnbextension", "traitlets", "jupyterlab-widgets"]
    lock_path.write_text(json.dumps(lock))
    config = json.loads((out / "jupyter-lite.json").read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    kernel["loadPyodideOptions"]["packages"] = ["ipywidgets", "jupyterlab-widgets", "playtest-kit", "widgetsnbextension"]
    (out / "jupyter-lite.json").write_text(json.dumps(config))
    lite._trim_front_ends(out)
    assert json.loads(lock_path.read_text())["packages"]["ipywidgets"]["depends"] == ["comm", "traitlets"]
    kernel = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["loadPyodideOptions"]["packages"] == ["ipywidgets", "playtest-kit"]
