"""``manage.py run_embedded``: the one-command product (the embedded default).

Migrates the SQLite database under ``$LINEUP_DATA_DIR``, makes sure a login exists (created once,
its password kept in ``login.json`` next to the database, readable only by you; the install's
``secret_key`` beside it is made by the settings), prints the URL and the login, then serves the
ASGI app with Daphne in this process, with ``DEBUG`` off unless ``--debug``. Daphne imports
``lineup.asgi``, which starts the in-process deadline scheduler (and recovery) in the embedded mode.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

DEFAULT_USERNAME = "lineup"


def ensure_login(data_dir: Path, username: str) -> tuple[str, str | None]:
    """Create the embedded login once; return (username, password or None if it was changed)."""
    login_file = data_dir / "login.json"
    user_model = get_user_model()
    stored = json.loads(login_file.read_text()) if login_file.exists() else {}
    user = user_model.objects.filter(username=username).first()
    if user is None:
        password = secrets.token_urlsafe(9)
        user_model.objects.create_superuser(username=username, password=password, email="")
        login_file.write_text(json.dumps({"username": username, "password": password}))
        login_file.chmod(0o600)
        return username, password
    if stored.get("username") == username and user.check_password(stored.get("password", "")):
        return username, stored["password"]
    return username, None


class Command(BaseCommand):
    help = "Run LineUp in its embedded default (SQLite, in-memory layer, in-process scheduler) and print the login."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("LINEUP_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("LINEUP_PORT", "8000")))
        parser.add_argument("--username", default=DEFAULT_USERNAME, help="the login to create on first run")
        parser.add_argument(
            "--debug",
            action="store_true",
            help="for developers: Django's debug pages (tracebacks, settings, URLs); never on a reachable host",
        )

    def handle(self, *args: object, host: str, port: int, username: str, debug: bool, **options: object) -> None:
        if settings.LINEUP_SCHEDULER == "celery":
            raise CommandError(
                "run_embedded is the embedded default; with REDIS_URL set, run Daphne, a Celery worker and one "
                "beat instead (docs/operations.md)."
            )
        data_dir = Path(settings.DATA_DIR)
        data_dir.mkdir(parents=True, exist_ok=True)
        call_command("migrate", interactive=False, verbosity=0)
        username, password = ensure_login(data_dir, username)
        url = f"http://{host}:{port}/"
        self.stdout.write(self.style.SUCCESS("LineUp is starting (embedded default)"))
        self.stdout.write(f"  open:      {url}workspace/")
        self.stdout.write(f"  login:     {username}")
        self.stdout.write(
            f"  password:  {password}"
            if password
            else "  password:  (changed since it was created; reset it with: manage.py changepassword " + username + ")"
        )
        self.stdout.write(f"  data:      {data_dir} (the database, the login and this install's secret key)")
        if debug:
            self.stdout.write(self.style.WARNING("  debug:     on (Django's debug pages; for development only)"))
        if os.environ.get("LINEUP_REFERENCE_AGENT_URL") == "":
            # An empty URL is the documented off switch: say so rather than promise an answer.
            self.stdout.write("  agent:     the built-in reference Agent is off (LINEUP_REFERENCE_AGENT_URL is empty)")
        else:
            self.stdout.write("  agent:     the built-in reference Agent answers in the IM (English or Chinese)")
        self.stdout.write("  stop with Ctrl+C; a focus running now is settled from its ends_at on the next start")
        self.stdout.flush()
        if debug:
            os.environ["LINEUP_DEBUG"] = "1"  # read by the settings of the Daphne process below
        # The built-in reference Agent runs in the server process and talks to it over /ws/agent/.
        os.environ.setdefault("LINEUP_REFERENCE_AGENT_URL", f"ws://{host}:{port}/ws/agent/")
        # Hand the process over to Daphne (same interpreter, same environment).
        os.execv(
            sys.executable,
            [sys.executable, "-m", "daphne", "-b", host, "-p", str(port), "lineup.asgi:application"],
        )
