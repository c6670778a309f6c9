"""A Jupyter server setting that makes clicks on the board feel instant.

jupyter_server leaves Nagle's algorithm on for kernel websockets, so a kernel
message written right after another one waits for the browser's delayed ACK:
about 40 ms on every round trip from a click to the redrawn board. This
connection class turns it off (TCP_NODELAY) through the server's supported
configuration hook; nothing is monkeypatched. ``./dev.sh lab`` and ``binder/``
enable it. For a server of your own, start it with::

    jupyter lab --ServerApp.kernel_websocket_connection_class=playtest.server.NoDelayKernelWebsocketConnection

or put this line in ``jupyter_server_config.py``::

    c.ServerApp.kernel_websocket_connection_class = "playtest.server.NoDelayKernelWebsocketConnection"

``benchmarks/latency.py`` measures a click with and without it.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

__all__ = ["NoDelayKernelWebsocketConnection", "SETTING"]

#: the command-line option that enables it
SETTING = ("--ServerApp.kernel_websocket_connection_class="
           "playtest.server.NoDelayKernelWebsocketConnection")


class NoDelayKernelWebsocketConnection(ZMQChannelsWebsocketConnection):
    """The stock kernel websocket connection, with Nagle's algorithm off on its socket."""

    def connect(self) -> Any:
        self.websocket_handler.set_nodelay(True)
        return super().connect()
