"""An nginx of the bench's own, proxying as docs/operations/nginx.conf says (no bench.common: tests import it)."""

from __future__ import annotations

import re
from pathlib import Path

LOOPBACK = "127.0.0.1"
NGINX = "/usr/sbin/nginx"


def nginx_config(directory: str, listen_port: int, daphne_port: int) -> str:
    """docs/operations/nginx.conf's proxying (its TLS server's locations, but /static/) in an nginx
    of its own on loopback, plain HTTP, with the bench's Daphne as the one upstream."""
    documented = (Path(__file__).resolve().parents[1] / "docs" / "operations" / "nginx.conf").read_text()
    tls_server = documented[documented.index("listen 443") :]
    body = tls_server[tls_server.index("client_max_body_size") : tls_server.rindex("}")]
    body = re.sub(r"\n\s*# Collected by `manage.py collectstatic`.*?\n    }\n", "\n", body, flags=re.S)
    mapping = documented[documented.index("map $http_upgrade") : documented.index("server {")]
    return f"""daemon off;
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    upstream lineup_daphne {{ server {LOOPBACK}:{daphne_port}; keepalive 32; }}
    {mapping}
    server {{
        listen {LOOPBACK}:{listen_port};
        {body}
    }}
}}
"""
