"""The Django admin internals LineUp relies on: the yes/no icon of change lists and read-only fields.

Checked against Django 5.2.19 (``CHECKED_AGAINST``; tests/lineup/internals/test_django_admin_5_2_19.py
fails on any other version and exercises the replacement). ``admin_list._boolean_icon`` is private to
the admin; it is looked up in its module at each call (also by ``django.contrib.admin.utils
.display_for_field``), so replacing it there changes every icon. Django writes its alternative text
as "True"/"False", which a screen reader reads out in English on a Chinese page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.admin.templatetags import admin_list
from django.utils.safestring import SafeString

CHECKED_AGAINST = {"Django": "5.2.19"}


def replace_boolean_icon(icon: Callable[[bool | None], SafeString]) -> None:
    """Make ``icon`` the admin's yes/no icon for every list column and read-only field."""
    admin_list._boolean_icon = icon
