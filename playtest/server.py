"""A Jupyter server setting that makes clicks on the board feel instant.

jupyter_server leaves Nagle's algorithm on for kernel websockets, so a kernel
message written right after another one waits for the browser's delayed ACK:
about 40 ms on every round trip from a click to the redrawn board. This
connection class turns it off (TCP_NODELAY) through the server's supported
configuration hook; nothing is monkeypatched.

It is on wherever the kit is installed: ``pip install playtest-kit`` puts
``etc/jupyter/jupyter_server_config.d/playtest.json`` in the environment, which
enables this module as a Jupyter server extension (the way every server
extension is enabled); when the server starts, the extension sets the class,
unless the server's configuration names a kernel websocket connection class of
its own (or it talks to a kernel gateway), which is then left as it is.
``jupyter server extension disable playtest.server`` turns it off. By hand,
start a server with::

    jupyter lab --ServerApp.kernel_websocket_connection_class=playtest.server.NoDelayKernelWebsocketConnection

or put this line in ``jupyter_server_config.py``::

    c.ServerApp.kernel_websocket_connection_class = "playtest.server.NoDelayKernelWebsocketConnection"

``benchmarks/latency.py`` measures a click with and without it.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

__all__ = ["NoDelayKernelWebsocketConnection", "SETTING", "CLASS_NAME"]

#: the class, by the name the server's configuration uses
CLASS_NAME = "playtest.server.NoDelayKernelWebsocketConnection"

#: the command-line option that enables it
SETTING = ("--ServerApp.kernel_websocket_connection_class="
           "playtest.server.NoDelayKernelWebsocketConnection")


class NoDelayKernelWebsocketConnection(ZMQChannelsWebsocketConnection):
    """The stock kernel websocket connection, with Nagle's algorithm off on its socket."""

    def connect(self) -> Any:
        self.websocket_handler.set_nodelay(True)
        return super().connect()


# ---------------------------------------------------------------------- the server extension

def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """This module is a Jupyter server extension (enabled by the ``jupyter_server_config.d`` file)."""
    return [{"module": "playtest.server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Use the no-delay class for kernel websockets, unless the server's configuration chose a class
    itself (or the server talks to a kernel gateway, which has its own). The kernel websocket handler
    reads the class from the web application's settings at each connection."""
    chosen = "kernel_websocket_connection_class" in (serverapp.config.get("ServerApp") or {})
    if not chosen and serverapp.kernel_websocket_connection_class is ZMQChannelsWebsocketConnection:
        serverapp.kernel_websocket_connection_class = NoDelayKernelWebsocketConnection
        serverapp.web_app.settings["kernel_websocket_connection_class"] = NoDelayKernelWebsocketConnection
        serverapp.log.debug("playtest: kernel websockets without Nagle's delay (%s)", CLASS_NAME)
