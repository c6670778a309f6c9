"""Build the serverless site (JupyterLite) from the package registries alone.

``python -m playtest.lite [--out DIR] [--work DIR]`` (what ``./dev.sh lite`` runs):

1. a build environment (``WORK/venv``) with JupyterLite and its Pyodide kernel, ``pyodide-lock``
   and ``uv``, the widgets' front ends (``jupyterlab_widgets``, ``anywidget``), from PyPI;
2. the kit's wheel, built from the repository's tracked files;
3. the Pyodide runtime from the npm package ``pyodide`` (``npm pack``: the registry's own client,
   which checks the package's integrity). It carries none of Pyodide's package wheels, so its
   lock file is emptied and every package the browser kernel imports (the kernel's own, micropip,
   ipywidgets, anywidget, the kit) is resolved by ``uv`` from PyPI into local wheels
   (``PyodideLockAddon``), with ``UV_PYTHON_DOWNLOADS=never``;
4. ``jupyter lite build`` in a fresh folder each time: JupyterLite's task database
   (``.jupyterlite.doit.db``) remembers an old configuration and silently falls back to the CDN
   after ``jupyter-lite.json`` changes, so none is kept;
   then, for a faster cold load, the wheels' modules are compiled to bytecode by the site's own
   Pyodide in Node (:func:`_compile_wheels`), and the packages that only carry a front end are
   left out of what the browser kernel loads (:data:`FRONT_END_ONLY`);
5. a check that nothing came from anywhere else: every wheel ``uv`` fetched is from PyPI's hosts,
   JupyterLite fetched nothing, and the site's configuration points at its own files only (the
   kernel's fallback to PyPI is off).

The site holds the start page, every game's notebook and the testers' views (``testers/``), the
replay page's console, and the session files shipped for replay links (``--replay FILE``, in
``replays/``: :func:`add_replays`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from . import REPLAY_FOLDER, TESTER_FOLDER, shipped_name, tester_view_address

__all__ = ["build", "check_site", "add_replays", "main", "PINS", "PYODIDE_VERSION", "ALLOWED_HOSTS",
           "LiteBuildError"]

#: the build environment, pinned together (the Pyodide kernel expects its own Pyodide version)
PINS = ["jupyterlite-core==0.8.6", "jupyterlite-pyodide-kernel==0.8.6", "pyodide-lock[uv]==0.1.2",
        "jupyter_server>=2", "jupyterlab_widgets==3.0.17", "anywidget==0.11.0"]
#: Python packages that only carry a front end (the widgets' JavaScript for the classic notebook and
#: JupyterLab): the site serves that front end itself, the browser kernel never imports them, so the
#: kernel does not fetch and unpack them (2.4 MB) on every cold load
FRONT_END_ONLY = frozenset({"widgetsnbextension", "jupyterlab-widgets"})
#: what the browser kernel gets besides the kit, matching the front ends above
KERNEL_SPECS = ["ipywidgets==8.1.9", "anywidget==0.11.0", "micropip"]
PYODIDE_VERSION = "314.0.6"
#: where a download may come from: PyPI (wheels) and npm (the Pyodide runtime, through npm itself)
ALLOWED_HOSTS = frozenset({"pypi.org", "files.pythonhosted.org", "registry.npmjs.org"})


class LiteBuildError(RuntimeError):
    """The site could not be built, or it failed its check (the message says which step and why)."""


def _run(cmd: list[str], log: Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        done = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode:
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-25:]
        raise LiteBuildError(f"{' '.join(cmd[:4])} ... failed (exit {done.returncode}); the end of {log}:\n"
                             + "\n".join(tail))


def _repo() -> Path:
    return Path(__file__).resolve().parents[2]


def _environment(work: Path, log: Path) -> Path:
    """The build environment (made once, again when the pins change); returns its python."""
    venv = work / "venv"
    python = venv / "bin" / "python"
    stamp = venv / ".playtest-lite-pins"
    if python.exists() and stamp.exists() and stamp.read_text() == "\n".join(PINS):
        return python
    shutil.rmtree(venv, ignore_errors=True)
    _run([sys.executable, "-m", "venv", str(venv)], log)
    _run([str(python), "-m", "pip", "install", "--quiet", *PINS], log)
    stamp.write_text("\n".join(PINS))
    return python


def _kit_wheel(python: Path, repo: Path, work: Path, log: Path) -> Path:
    """The kit's wheel, built from the tracked files only (nothing local leaks in)."""
    src, dist = work / "src", work / "dist"
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(dist, ignore_errors=True)
    src.mkdir(parents=True)
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=repo,
                           capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, files):
        source = repo / os.fsdecode(name)
        if source.is_file():
            target = src / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    _run([str(python), "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(src)], log)
    wheels = sorted(dist.glob("playtest_kit-*.whl"))
    if len(wheels) != 1:
        raise LiteBuildError(f"building the kit's wheel gave {len(wheels)} wheels in {dist}")
    return wheels[0]


def _pyodide(work: Path, log: Path) -> Path:
    """The npm package ``pyodide`` (cached by version), unpacked; returns its folder."""
    tarball = work / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        _run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(work), "--silent"], log)
    if not tarball.exists():
        raise LiteBuildError(f"npm pack gave no {tarball.name}")
    unpacked = work / "pyodide"
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(work / "npm", filter="data")
    (work / "npm" / "package").rename(unpacked)
    shutil.rmtree(work / "npm", ignore_errors=True)
    return unpacked


def _prune_lock(pyodide: Path) -> None:
    """Pyodide's lock lists its own package wheels, which the npm package does not carry: leave
    them out (uv resolves what the kernel needs from PyPI), and give it the version pyodide-lock needs."""
    path = pyodide / "pyodide-lock.json"
    lock = json.loads(path.read_text(encoding="utf-8"))
    lock.setdefault("info", {}).setdefault("version", PYODIDE_VERSION)
    lock["packages"] = {name: spec for name, spec in lock.get("packages", {}).items()
                        if (pyodide / spec.get("file_name", "")).is_file()}
    path.write_text(json.dumps(lock), encoding="utf-8")


def _notebooks(repo: Path, files: Path) -> list[str]:
    """Copy the start page, every game's notebook and the testers' views; returns their paths."""
    copied = []
    source = repo / "notebooks"
    for notebook in sorted(source.rglob("*.ipynb")):
        relative = notebook.relative_to(source)
        if any(part.startswith(".") or part == "sessions" for part in relative.parts):
            continue
        target = files / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(notebook, target)
        copied.append(relative.as_posix())
    (files / TESTER_FOLDER).mkdir(parents=True, exist_ok=True)
    (files / TESTER_FOLDER / "README.md").write_text(
        "Testers' session files are kept here, one per tester and game, in this browser's storage.\n",
        encoding="utf-8")
    return copied


#: runs in Node: the site's own Pyodide compiles every wheel's modules into its bytecode, as
#: Pyodide's own distribution does. Without it the browser compiles every module of IPython, the
#: widgets and the kit from source on each cold load. The kit keeps its sources beside the bytecode
#: (unchecked hash-based .pyc, used as they are: unpacking gives files new times), so a designer's
#: traceback still shows its lines; the other wheels carry bytecode only (``name.pyc`` where
#: ``name.py`` was), as Pyodide's compiled wheels do.
_COMPILE_JS = """
const [runtime, wheels, keep] = process.argv.slice(2);
const { loadPyodide } = await import(runtime + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: runtime + "/" });
py.FS.mkdir("/wheels");
py.FS.mount(py.FS.filesystems.NODEFS, { root: wheels }, "/wheels");
py.globals.set("keep_sources", keep);
console.log(py.runPython(`
import hashlib, importlib.util, io, json, os, posixpath, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
tag, done = sys.implementation.cache_tag, {}
for name in sorted(os.listdir("/wheels")):
    if not name.endswith(".whl"):
        continue
    with zipfile.ZipFile("/wheels/" + name) as src:
        infos = src.infolist()
        if any(i.filename.endswith(".pyc") for i in infos):
            continue
        keep = name.startswith(keep_sources + "-")
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in infos:
                data = src.read(info)
                code = None
                if info.filename.endswith(".py") and ".data/" not in info.filename:
                    try:
                        code = compile(data, info.filename, "exec", dont_inherit=True)
                    except (SyntaxError, ValueError):
                        code = None
                if code is None or keep:
                    dst.writestr(info, data)
                if code is None:
                    continue
                pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), False)
                if keep:
                    folder, file = posixpath.split(info.filename)
                    dst.writestr(posixpath.join(folder, "__pycache__", f"{file[:-3]}.{tag}.pyc"), bytes(pyc))
                else:
                    dst.writestr(info.filename + "c", bytes(pyc))
    data = out.getvalue()
    with open("/wheels/" + name, "wb") as f:
        f.write(data)
    done[name] = hashlib.sha256(data).hexdigest()
json.dumps(done)
`));
"""


def _compile_wheels(out: Path, work: Path, log: Path) -> dict[str, str]:
    """Compile the site's wheels (``static/pyodide-lock``) with the site's own Pyodide, in Node, and
    give their lock entries the new hashes; returns {wheel: sha256}. Node comes with npm, which
    the build needs for the runtime anyway."""
    script = work / "compile-wheels.mjs"
    script.write_text(_COMPILE_JS, encoding="utf-8")
    folder = out / "static" / "pyodide-lock"
    with open(log, "a", encoding="utf-8") as written:
        done = subprocess.run(["node", str(script), str((out / "static" / "pyodide").resolve()), str(folder.resolve()),
                               "playtest_kit"],
                              stdout=subprocess.PIPE, stderr=written, text=True)
    if done.returncode:
        raise LiteBuildError(f"compiling the wheels in Node failed (exit {done.returncode}); see {log}")
    hashes: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    lock_path = folder / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    for spec in lock["packages"].values():
        name = spec["file_name"].rsplit("/", 1)[-1]
        if name in hashes and spec["file_name"].startswith("../../static/pyodide-lock/"):
            spec["sha256"] = hashes[name]
    lock_path.write_text(json.dumps(lock, indent=2), encoding="utf-8")
    return hashes


def _trim_front_ends(out: Path) -> None:
    """Leave the :data:`FRONT_END_ONLY` packages out of what the browser kernel loads: out of its
    first packages (``loadPyodideOptions``) and out of every package's dependencies in the lock."""
    lock_path = out / "static" / "pyodide-lock" / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    for spec in lock["packages"].values():
        spec["depends"] = [d for d in spec.get("depends", []) if d not in FRONT_END_ONLY]
    lock_path.write_text(json.dumps(lock, indent=2), encoding="utf-8")
    config_path = out / "jupyter-lite.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"].get("litePluginSettings", {}).get(
        "@jupyterlite/pyodide-kernel-extension:kernel", {})
    options = kernel.get("loadPyodideOptions", {})
    if "packages" in options:
        options["packages"] = [p for p in options["packages"] if p not in FRONT_END_ONLY]
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")


def build(out: Path, work: Path, quiet: bool = False) -> dict[str, Any]:
    """Build the site into ``out`` (replaced), with downloads and the build environment kept in
    ``work``; returns what :func:`check_site` found. Raises :class:`LiteBuildError`."""
    out, work = out.resolve(), work.resolve()
    repo = _repo()
    work.mkdir(parents=True, exist_ok=True)
    log = work / "build.log"
    log.write_text("", encoding="utf-8")
    say = (lambda *a: None) if quiet else (lambda text: print(text, flush=True))
    start = time.monotonic()
    say("1/5 build environment (PyPI: " + ", ".join(p.split("=")[0].split("[")[0] for p in PINS) + ")")
    python = _environment(work, log)
    say("2/5 the kit's wheel")
    wheel = _kit_wheel(python, repo, work, log)
    say(f"3/5 the Pyodide runtime (npm: pyodide@{PYODIDE_VERSION})")
    pyodide = _pyodide(work, log)
    say("4/5 jupyter lite build (uv resolves the kernel's packages from PyPI)")
    lite = work / "lite"                 # a fresh folder: no task database from an earlier build
    shutil.rmtree(lite, ignore_errors=True)
    (lite / "static").mkdir(parents=True)
    shutil.move(str(pyodide), lite / "static" / "pyodide")
    _prune_lock(lite / "static" / "pyodide")
    (lite / "wheels").mkdir()
    shutil.copy2(wheel, lite / "wheels" / wheel.name)
    notebooks = _notebooks(repo, lite / "files")
    kernel = "@jupyterlite/pyodide-kernel-extension:kernel"
    (lite / "jupyter-lite.json").write_text(json.dumps({
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {"appName": "playtest", "disablePyPIFallback": True,
                                "litePluginSettings": {kernel: {"disablePyPIFallback": True}}}}, indent=1))
    shutil.rmtree(out, ignore_errors=True)
    (lite / "jupyter_lite_config.json").write_text(json.dumps({
        "LiteBuildConfig": {"output_dir": str(out), "contents": ["files"], "no_sourcemaps": True},
        "PyodideLockAddon": {"enabled": True, "wheels": ["wheels"],
                             "specs": ["playtest-kit", *KERNEL_SPECS],
                             # fetched while Pyodide starts, not after: the tester view imports them first
                             "prefetch_extra": ["playtest-kit", "ipywidgets", "anywidget", "psygnal",
                                                "typing-extensions"]}},
        indent=1))
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "UV_DEFAULT_INDEX": "https://pypi.org/simple",
           "UV_NO_CONFIG": "1", "JUPYTERLITE_NO_LIBARCHIVE": "1"}
    env.pop("JUPYTERLITE_PYODIDE_URL", None)
    _run([str(python), "-m", "jupyter", "lite", "build"], log, cwd=lite, env=env)
    say("   compiling the wheels' modules with the site's own Pyodide (Node)")
    _compile_wheels(out, work, log)
    _trim_front_ends(out)
    say("5/5 checking that nothing came from anywhere but the registries")
    found = check_site(out, lite, log)
    found["seconds"] = round(time.monotonic() - start, 1)
    found["notebooks"] = notebooks
    return found


def check_site(out: Path, lite: Path, log: Path) -> dict[str, Any]:
    """Check the built site and how it was built; returns its size, files and the hosts downloaded from."""
    problems: list[str] = []
    hosts: set[str] = set()
    pylock = lite / ".cache" / "pyodide-lock" / "_work" / "pylock.toml"
    if not pylock.is_file():
        problems.append(f"no {pylock.name}: uv did not resolve the kernel's packages")
    else:
        text = pylock.read_text(encoding="utf-8")
        for url in re.findall(r'\burl = "([^"]+)"', text):
            host = urlparse(url).hostname
            if host:
                hosts.add(host)
        for source in re.findall(r"^(sdist|vcs|directory) = ", text, flags=re.M):
            problems.append(f"a package comes from a {source}, not a wheel (uv ran with --no-build)")
    outside = sorted(h for h in hosts if h not in ALLOWED_HOSTS)
    if outside:
        problems.append("wheels were downloaded from " + ", ".join(outside))
    text = log.read_text(encoding="utf-8", errors="replace")
    fetched = sorted(set(re.findall(r"fetch:(\S+)", text)))
    if fetched:
        problems.append("JupyterLite fetched " + ", ".join(fetched))
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    kernel = config.get("litePluginSettings", {}).get("@jupyterlite/pyodide-kernel-extension:kernel", {})
    urls = [kernel.get("pyodideUrl", ""), kernel.get("loadPyodideOptions", {}).get("lockFileURL", ""),
            *kernel.get("pipliteUrls", [])]
    for url in urls:
        if not url.startswith("./"):
            problems.append(f"the site's configuration points outside the site: {url or '(nothing)'}")
    if not kernel.get("disablePyPIFallback"):
        problems.append("the kernel would fall back to PyPI for a package the site lacks")
    lock = json.loads((out / "static" / "pyodide-lock" / "pyodide-lock.json").read_text(encoding="utf-8"))
    base = out / "static" / "pyodide"
    for name, spec in lock["packages"].items():
        file_name = spec["file_name"]
        if urlparse(file_name).scheme or not (base / file_name).resolve().is_file():
            problems.append(f"{name} is not in the site ({file_name})")
        elif "sha256" in spec:       # the browser refuses a wheel whose hash is not the lock's
            import hashlib
            if hashlib.sha256((base / file_name).resolve().read_bytes()).hexdigest() != spec["sha256"]:
                problems.append(f"{name}'s wheel does not match its hash in the lock ({file_name})")
    for needed in ("playtest-kit", "ipywidgets", "anywidget", "micropip", "pyodide-kernel"):
        if needed not in lock["packages"]:
            problems.append(f"the browser kernel has no {needed}")
    extensions = {e["name"] for e in config.get("federated_extensions", [])}
    for needed in ("@jupyter-widgets/jupyterlab-manager", "anywidget", "@jupyterlite/pyodide-kernel-extension"):
        if needed not in extensions:
            problems.append(f"the site lacks the front end {needed}")
    from ..rules import games
    tester_views = sorted(p.stem for p in (out / "files" / "testers").glob("*.ipynb") if p.stem in games())
    missing = [g for g in games() if g not in tester_views and (_repo() / "notebooks" / "testers" /
                                                                 f"{g}.ipynb").exists()]
    if missing:
        problems.append("no tester view for " + ", ".join(missing))
    if problems:
        raise LiteBuildError("the site failed its check:\n- " + "\n- ".join(problems))
    files = [p for p in out.rglob("*") if p.is_file()]
    return {"out": str(out), "bytes": sum(p.stat().st_size for p in files), "files": len(files),
            "hosts": sorted(hosts | {"registry.npmjs.org"}), "packages": sorted(lock["packages"]),
            "tester_views": tester_views}


def _write_json(path: Path, data: Any) -> None:
    """Write ``path`` anew (a new file renamed over the old: a copy of the site made of hard links
    keeps the original's content)."""
    fresh = path.with_name(path.name + ".new")
    fresh.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.replace(fresh, path)


def add_replays(site: Path, sources: list[Path]) -> list[str]:
    """Ship session files with a built site, in its ``replays/`` folder (as ``NAME.playtest``: see
    :func:`playtest.lite.shipped_name`), for replay links
    (:func:`playtest.replay_link` with ``via="lite"``); returns their paths on the site.

    Each file is checked first as the replay page will check it (it must replay through the
    rules: a tampered or foreign file is refused with :class:`playtest.SessionFileError`) and
    must have a name a replay link can carry. The site's file listing (JupyterLite's
    ``api/contents``) is updated so the browser kernel finds them; nothing else changes, so a
    site can be given a file to replay without being built again.
    """
    from ..session import Session
    from ..widgets.replay import _FILE
    site = Path(site)
    listing = site / "api" / "contents" / "all.json"
    if not listing.is_file() or not (site / "files").is_dir():
        raise LiteBuildError(f"{site} is not a built site (no api/contents/all.json): build it first")
    checked = []
    for source in sources:
        source = Path(source)
        if not _FILE.match(source.name):
            raise LiteBuildError(f"a replay link names a file NAME.playtest.json of letters, digits, '_', '-' and "
                                 f"'.': rename {source.name!r}")
        Session.read(source)               # refuses a file the replay page would refuse
        checked.append(source)
    folder = site / "files" / REPLAY_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for source in checked:
        target = folder / shipped_name(source.name)
        if target.exists():
            target.unlink()                # never write through a hard link into another copy
        shutil.copyfile(source, target)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())
    entries = []
    for file in sorted(folder.glob("*.playtest")):
        entries.append({"content": None, "created": stamp, "format": None, "hash": None, "hash_algorithm": None,
                        "last_modified": stamp, "mimetype": "text/plain", "name": file.name,
                        "path": f"{REPLAY_FOLDER}/{file.name}", "size": file.stat().st_size, "type": "file",
                        "writable": True})
    own = site / "api" / "contents" / REPLAY_FOLDER / "all.json"
    own.parent.mkdir(parents=True, exist_ok=True)
    _write_json(own, {"content": entries, "created": stamp, "format": "json", "hash": None, "hash_algorithm": None,
                      "last_modified": stamp, "mimetype": None, "name": REPLAY_FOLDER, "path": REPLAY_FOLDER,
                      "size": None, "type": "directory", "writable": True})
    root = json.loads(listing.read_text(encoding="utf-8"))
    if not any(e.get("path") == REPLAY_FOLDER for e in root.get("content", [])):
        root["content"].append({"content": None, "created": stamp, "format": None, "hash": None,
                                "hash_algorithm": None, "last_modified": stamp, "mimetype": None,
                                "name": REPLAY_FOLDER, "path": REPLAY_FOLDER, "size": None, "type": "directory",
                                "writable": True})
        _write_json(listing, root)
    return [f"{REPLAY_FOLDER}/{shipped_name(source.name)}" for source in checked]


def main(argv: list[str] | None = None) -> int:
    repo = _repo()
    ap = argparse.ArgumentParser(prog="python -m playtest.lite", description=__doc__.strip().splitlines()[0])
    ap.add_argument("--out", type=Path, default=repo / "build" / "lite-site",
                    help="where the site goes (replaced; default build/lite-site)")
    ap.add_argument("--work", type=Path, default=repo / "build" / "lite-work",
                    help="the build environment and downloads, kept between builds (default build/lite-work)")
    ap.add_argument("--replay", type=Path, action="append", default=[], metavar="FILE",
                    help="a session file to ship with the site for replay links (playtest.replay_link(FILE, "
                         "move=N, via='lite', base_url=...)); may be given more than once")
    ap.add_argument("--no-build", action="store_true",
                    help="only add the --replay files to the site already built in --out (no rebuild)")
    args = ap.parse_args(argv)
    if args.no_build:
        from ..session import SessionFileError
        try:
            shipped = add_replays(args.out, args.replay)
        except (LiteBuildError, SessionFileError, OSError) as err:
            print(f"Nothing was added: {err}", file=sys.stderr)
            return 1
        print(f"Added to {args.out}: {', '.join(shipped) or 'nothing (give --replay FILE)'}")
        return 0
    if args.replay:          # checked before the long build, not after
        from ..session import Session, SessionFileError
        try:
            for file in args.replay:
                Session.read(file)
        except (SessionFileError, OSError) as err:
            print(f"The site was not built: {file}: {err}", file=sys.stderr)
            return 1
    try:
        found = build(args.out, args.work)
        shipped = add_replays(Path(found["out"]), args.replay) if args.replay else []
    except LiteBuildError as err:
        print(f"The site was not built: {err}", file=sys.stderr)
        return 1
    out = found["out"]
    print(f"\nThe site is in {out}: {found['bytes'] / 1e6:.1f} MB in {found['files']:,} files, built in "
          f"{found['seconds']:.0f} s; downloads came from {', '.join(found['hosts'])} only.")
    print(f"Tester views: {', '.join(found['tester_views'])}.")
    print("\nServe it (on this machine):")
    print(f"  python3 -m http.server --bind 127.0.0.1 --directory {out} 8000")
    print("  then open http://127.0.0.1:8000/lab/index.html (the start page is 00_start_here.ipynb)")
    print("Publish it: copy the folder to any static host, e.g. GitHub Pages (push it to a gh-pages branch,")
    print("or upload it with actions/upload-pages-artifact); nothing else is needed, no server, no CDN.")
    example = found["tester_views"][0] if found["tester_views"] else "source"
    print("\nA tester's link: playtest.tester_link(game=..., via='lite', base_url='https://YOU.github.io/SITE/')")
    print(f"  here: {tester_view_address('http://127.0.0.1:8000', example)}")
    if shipped:
        print(f"Shipped for replay links: {', '.join(shipped)} (playtest.replay_link(FILE, move=N, via='lite', "
              "base_url=...))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
