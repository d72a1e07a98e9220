"""docs/operations/nginx.conf refuses /metrics in every spelling, in a real nginx (skipped where none
is installed: ``apt-get install nginx-light``), in front of a listener that records what reaches it."""

from __future__ import annotations

import http.client
import os
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench.nginx import LOOPBACK, NGINX, nginx_config
from tests.support.processes import free_port, wait_for

SPELLINGS = ["/metrics", "/metrics/", "/METRICS", "//metrics", "/Metrics/", "/metrics/x", "/%6Detrics", "/./metrics"]
SPELLINGS += ["/static/../metrics", "/metrics?format=text", "/metrics%2F"]


@pytest.mark.skipif(not os.path.exists(NGINX), reason="nginx is not installed here")
def test_every_spelling_of_metrics_is_refused_before_daphne(tmp_path):
    reached: list[str] = []

    class Upstream(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            reached.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    upstream = ThreadingHTTPServer((LOOPBACK, 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = free_port()
    (tmp_path / "nginx.conf").write_text(nginx_config(str(tmp_path), port, upstream.server_address[1]))
    nginx = subprocess.Popen(
        [NGINX, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path), "-e", str(tmp_path / "e.log")]
    )
    try:

        def get(path: str) -> int:
            connection = http.client.HTTPConnection(LOOPBACK, port, timeout=5)
            connection.request("GET", path, headers={"Host": "lineup.example.com"})
            return connection.getresponse().status

        def answering() -> bool:
            try:
                return get("/readyz") == 200
            except OSError:
                return False

        wait_for(answering, timeout=15, what="nginx to listen")
        statuses = {path: get(path) for path in SPELLINGS}
        assert all(status in (400, 404) for status in statuses.values()), statuses
        assert [path for path in reached if "etrics" in path.lower()] == []
        assert "/readyz" in reached  # the rest is proxied
    finally:
        nginx.terminate()
        nginx.wait(10)
        upstream.shutdown()
