"""Small HTTP servers on 127.0.0.1 for the API's tests: a webhook receiver and a fake ATS."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Site:
    url: str
    received: list[Received] = field(default_factory=list)


Route = Callable[[str, bytes], tuple[int, bytes, str]]


@contextmanager
def http_site(route: Route) -> Iterator[Site]:
    """A server whose answers come from ``route(path, body) -> (status, body, content type)``;
    every request is recorded."""
    site = Site(url="")

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            site.received.append(Received(self.path, dict(self.headers), body))
            status, payload, content_type = route(self.path, body)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = _answer

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    site.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()


def json_answer(status: int, data: Any) -> tuple[int, bytes, str]:
    return status, json.dumps(data).encode(), "application/json"
