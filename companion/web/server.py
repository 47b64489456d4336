"""A threaded werkzeug server in a background thread: for the browser test, the
latency benchmark, and anyone embedding the companion.

>>> from companion.web import create_app
>>> with BackgroundServer(create_app({"DATABASE": ":memory:"})) as server:
...     server.url.startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import threading
from types import TracebackType

from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server


class BackgroundServer:
    """Serve `app` on host:port (port 0 = any free one) until stopped. Threaded, since
    every open live stream holds a thread."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
        self._server: BaseWSGIServer = make_server(host, port, app, threaded=True)
        self._server.daemon_threads = True  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="companion-web")

    @property
    def url(self) -> str:
        return f"http://{self._server.host}:{self._server.server_port}"

    def start(self) -> BackgroundServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
