"""The serverless site in a real browser, offline: build it (cached by its sources), serve it on
loopback, and open its pages in Chromium with every request outside loopback blocked and recorded.

No pytest dependency: ``benchmarks/bench_lite.py`` uses it too.

* :func:`cached_site` - the site built by ``playtest.lite.build`` into a cache folder keyed by a
  hash of everything that goes into it (the kit's tracked files, the notebooks, the pins); a
  second run with the same sources reuses it.
* :class:`StaticServer` - a folder served on 127.0.0.1 (a thread), counting bytes sent.
* :class:`RefusingProxy` - the browser's proxy (``--proxy-server``; loopback is never proxied):
  every request for anywhere else, from the page, a worker or the service worker, reaches it, is
  written down and refused.
* :func:`offline_context` - a browser context whose requests outside loopback are refused and
  kept in a list too (the test asserts both stay empty).
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import re
import socketserver
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from playtest.lite import build as lite_build  # noqa: E402


def sources_key(repo: Path = REPO) -> str:
    """A hash of what the site is built from: the tracked files of the kit and notebooks, the pins."""
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
                            "playtest", "notebooks", "pyproject.toml"], cwd=repo, capture_output=True,
                           check=True).stdout.split(b"\0")
    digest = hashlib.sha256(json.dumps([lite_build.PINS, lite_build.KERNEL_SPECS,
                                        lite_build.PYODIDE_VERSION]).encode())
    for name in sorted(filter(None, names)):
        path = repo / name.decode()
        if path.is_file():
            digest.update(name + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def cached_site(cache: Path) -> tuple[Path, bool]:
    """The site for the current sources, built into ``cache`` when not there yet: (folder, built now)."""
    key = sources_key()
    site = cache / f"site-{key}"
    if (site / "jupyter-lite.json").is_file() and (site / ".playtest-complete").is_file():
        return site, False
    for old in cache.glob("site-*"):            # one site kept: each is ~45 MB
        if old != site:
            import shutil
            shutil.rmtree(old, ignore_errors=True)
    try:
        lite_build.build(site, cache / "work", quiet=True)
    except Exception:          # a registry hiccup or a cache another run left locked: once more, from clean
        import shutil
        shutil.rmtree(site, ignore_errors=True)
        shutil.rmtree(cache / "work", ignore_errors=True)
        lite_build.build(site, cache / "work", quiet=True)
    (site / ".playtest-complete").write_text(key)
    return site, True


class StaticServer:
    """``directory`` over HTTP on 127.0.0.1 (a free port), in a thread; ``sent`` counts bytes served."""

    def __init__(self, directory: Path):
        server = self
        self.sent = 0
        self.requests: list[str] = []

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def copyfile(self, source: Any, outputfile: Any) -> None:
                data = source.read()
                server.sent += len(data)
                outputfile.write(data)

            def do_GET(self) -> None:
                server.requests.append(self.path)
                super().do_GET()

        Handler.extensions_map = {**Handler.extensions_map, ".wasm": "application/wasm",
                                  ".mjs": "text/javascript", ".js": "text/javascript"}
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                     functools.partial(Handler, directory=str(directory)))
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> "StaticServer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


LOOPBACK = {"127.0.0.1", "localhost", "::1"}

#: Chromium's own services (updates, sign-in, safe browsing...): the browser calls them by itself, never
#: the site; the proxy refuses them like everything else, and the test tells them apart from the page's
BROWSER_SERVICES = re.compile(r"(^|\.)(googleapis\.com|google\.com|gvt1\.com|googleusercontent\.com)$")
#: switches that keep most of those calls from being made at all
QUIET_ARGS = ["--no-pings", "--disable-domain-reliability", "--disable-client-side-phishing-detection",
              "--disable-default-apps", "--disable-features=OptimizationHints,MediaRouter,AutofillServerCommunication"]


def shared_site(tmp_path_factory: Any) -> tuple[Path, bool]:
    """The built site the browser tests share (:func:`cached_site` in the cache beside pytest's
    temporary folders). Without ``npm`` (the Pyodide runtime comes from npm) the test is skipped,
    or fails when ``PLAYTEST_REQUIRE_BROWSER`` is set."""
    import os
    import shutil

    import pytest
    if not shutil.which("npm"):
        if os.environ.get("PLAYTEST_REQUIRE_BROWSER", "").strip():
            pytest.fail("npm is needed to build the serverless site, and PLAYTEST_REQUIRE_BROWSER is set")
        pytest.skip("npm is needed to build the serverless site")
    cache = tmp_path_factory.getbasetemp().parent / "playtest-lite-cache"
    cache.mkdir(parents=True, exist_ok=True)
    return cached_site(cache)


def request_host(line: str) -> str:
    """The host a proxy request line asks for (``CONNECT host:443 HTTP/1.1`` or ``GET http://host/...``)."""
    parts = line.split()
    target = parts[1] if len(parts) > 1 else ""
    return (urlparse(target).hostname if "://" in target else target.rsplit(":", 1)[0]) or ""


def split_requests(seen: list[str]) -> tuple[list[str], list[str]]:
    """The proxy's requests: (the browser's own services', everything else)."""
    own = [line for line in seen if BROWSER_SERVICES.search(request_host(line))]
    return own, [line for line in seen if line not in own]


class RefusingProxy:
    """An HTTP proxy on 127.0.0.1 that refuses everything and keeps the first line of each request in
    ``seen``: a browser started with :attr:`argument` can reach loopback only."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        seen = self.seen

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                line = self.rfile.readline(2048).decode("latin-1").strip()
                if line:
                    seen.append(line)
                self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        #: the Chromium switch that sends every request but loopback's here
        self.argument = f"--proxy-server=http://127.0.0.1:{self.server.server_address[1]}"
        #: every switch to start Chromium with: the proxy, and fewer calls of its own
        self.arguments = [self.argument, *QUIET_ARGS]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def offline_context(browser: Any, outside: list[str], **options: Any) -> Any:
    """A new context of ``browser`` in which every request outside loopback is refused and listed in
    ``outside`` (a service worker's own requests meet the browser's :class:`RefusingProxy`)."""
    context = browser.new_context(**options)

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if url.startswith(("data:", "blob:")) or urlparse(url).hostname in LOOPBACK:
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()
    context.route("**/*", route)
    context.on("websocket", lambda ws: None if urlparse(ws.url).hostname in LOOPBACK else outside.append(ws.url))
    return context
