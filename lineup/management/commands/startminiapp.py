"""``python manage.py startminiapp NAME``: a working MiniApp package, enabled (docs/miniapps.md).

Like Django's ``startapp``: it writes ``miniapps/NAME/`` (its AppConfig registering two tools on the
Runtime's generic deadline operation, its manifest, its ``phrasings.json`` — how people ask for it in
zh-Hans and en, which the built-in reference Agent learns from the Inventory — a minimal sandboxed Surface
with words in zh-Hans and en) and ``tests/miniapps/test_NAME.py`` (which passes as generated), adds the app to
``miniapps/bundled.py`` and says what it changed. Nothing in ``runtime/`` is edited.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path
from string import Template
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "miniapp_template"
NAME = re.compile(r"^[a-z][a-z0-9_]{0,30}$")
BUNDLED_LIST = "BUNDLED_MINIAPPS = ["


class Command(BaseCommand):
    help = "Create a MiniApp package miniapps/NAME/ on runtime.api, with a test, and enable it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the app id: lower case letters, digits and _ (e.g. timer2)")

    def handle(self, *args: Any, **options: Any) -> None:
        name: str = options["name"]
        if not NAME.match(name) or keyword.iskeyword(name):
            raise CommandError(f"{name!r} is not a valid MiniApp name: use a-z, 0-9 and _, starting with a letter")
        # The app id is also the Django app label: it may not shadow an installed app.
        if any(config.label == name for config in apps.get_app_configs()):
            raise CommandError(f"{name!r} is already the label of an installed app; choose another name")
        base = Path(settings.BASE_DIR)
        package = base / "miniapps" / name
        test_file = base / "tests" / "miniapps" / f"test_{name}.py"
        if package.exists() or test_file.exists():
            raise CommandError(f"{package.relative_to(base)} or {test_file.relative_to(base)} exists already")
        bundled = base / "miniapps" / "bundled.py"
        source = bundled.read_text(encoding="utf-8")
        if BUNDLED_LIST not in source:
            raise CommandError(f"{bundled.relative_to(base)} has no {BUNDLED_LIST!r} list to add the app to")

        words = {"name": name, "Title": name.replace("_", " ").capitalize(), "Class": _class_name(name)}
        written = []
        for template in sorted(TEMPLATE_DIR.rglob("*.tmpl")):
            relative = template.relative_to(TEMPLATE_DIR).with_suffix("")
            if relative.name == "test_NAME.py":
                target = test_file
            else:
                target = package / relative.parent / relative.name.replace("NAME", name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(Template(template.read_text(encoding="utf-8")).substitute(words), encoding="utf-8")
            written.append(target)
        for init in (base / "tests" / "miniapps" / "__init__.py",):
            if not init.exists():
                init.write_text("", encoding="utf-8")
                written.append(init)

        entry = f'    "miniapps.{name}",\n'
        start = source.index(BUNDLED_LIST) + len(BUNDLED_LIST)
        end = source.index("]", start)
        body = source[start:end]
        if not body.endswith("\n"):
            body += "\n"
        bundled.write_text(source[:start] + body + entry + source[end:], encoding="utf-8")

        self.stdout.write(f"Created the MiniApp {name!r}:")
        for path in written:
            self.stdout.write(f"  created  {path.relative_to(base)}")
        self.stdout.write(f'  changed  {bundled.relative_to(base)}: added "miniapps.{name}" to BUNDLED_MINIAPPS')
        self.stdout.write(
            f"It publishes {name}.start {{duration_seconds}} and {name}.stop {{}} to personal conversations "
            f'once the server restarts; the built-in Agent understands "start {name} for 5 minutes", '
            f'"how long is left on {name}?" and "stop {name}" (phrasings.json). '
            f"Run its test: scripts/test tests/miniapps/test_{name}.py"
        )


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))
