"""A small Server-Sent Events client (standard library only), for tests, the latency
benchmark and scripts that follow a table (a TV display, a logger).

    for event, data in SSEClient("http://pi:8000/stream/table"):
        print(data["round"], data["phase"])
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit


class SSEClient:
    """Iterate ``(event, data)`` of a stream; ``data`` is decoded JSON (None if empty).
    Comments (heartbeats) are yielded as ``(":", text)`` when `comments` is true."""

    def __init__(self, url: str, headers: Mapping[str, str] | None = None,
                 timeout: float = 30.0, comments: bool = False) -> None:
        parts = urlsplit(url)
        if not parts.hostname:
            raise ValueError(f"not an http URL: {url!r}")
        self._conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        self._conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""),
                           headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self._conn.getresponse()
        self.status = self.response.status
        self.comments = comments

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        event, data = "message", list[str]()
        while True:
            raw = self.response.readline()
            if not raw:
                return
            line = raw.decode("utf-8").rstrip("\r\n")
            if not line:
                if data:
                    text = "\n".join(data)
                    yield event, json.loads(text) if text else None
                event, data = "message", []
            elif line.startswith(":"):
                if self.comments:
                    yield ":", line[1:].strip()
            else:
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    event = value
                elif field == "data":
                    data.append(value)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> SSEClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
