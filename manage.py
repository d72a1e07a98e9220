#!/usr/bin/env python
"""Django's command-line utility for LineUp."""

import os
import sys

# With no DATABASE_URL a command uses the embedded SQLite database; on a production host that means the
# environment file was not loaded, and SQLite's own error ("no such table") does not say so.
UNSET_DATABASE_URL = """{error}

DATABASE_URL is not set, so this command used the embedded default's SQLite database
{path}, which has no LineUp tables. On a server, load the environment first:
    set -a; . /etc/lineup/lineup.env; set +a      (docs/operations.md § 3)
For the embedded default, create its tables with `python manage.py migrate` (or `run_embedded`)."""


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")
    from django.core.management import execute_from_command_line
    from django.db import OperationalError

    try:
        execute_from_command_line(sys.argv)
    except OperationalError as error:
        from django.conf import settings

        if getattr(settings, "EMBEDDED", False) and "no such table" in str(error):
            sys.exit(UNSET_DATABASE_URL.format(error=error, path=settings.DATABASES["default"]["NAME"]))
        raise


if __name__ == "__main__":
    main()
