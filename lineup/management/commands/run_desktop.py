"""``manage.py run_desktop``: the Desktop Host (``lineup/desktop/``), the workspace in a native window.

A thin door to ``python -m lineup.desktop``: the same options, the same behaviour — it starts the
embedded server unless ``--url`` names one, logs in, and stops the server it started when the
window closes.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Open the LineUp workspace in a native window (starts the embedded server unless --url is given)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="", help="a running LineUp server (default: start the embedded one)")
        parser.add_argument("--port", type=int, default=0, help="port of the embedded server (default: a free one)")
        parser.add_argument("--username", default="lineup", help="the login to use (the embedded one by default)")
        parser.add_argument("--size", default="1200x760", help="window size, WIDTHxHEIGHT")

    def handle(self, *args: object, url: str, port: int, username: str, size: str, **options: object) -> None:
        from lineup.desktop.app import main  # Qt loads only when the command runs

        argv = ["--port", str(port), "--username", username, "--size", size]
        if url:
            argv += ["--url", url]
        code = main(argv)
        if code:
            raise CommandError(f"the desktop host exited with {code}")
