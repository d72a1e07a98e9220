"""lineup.internals.django_admin, checked against Django 5.2.19: the admin's yes/no icon says yes, no and
unknown in the operator's language (decision 0052; the zh admin sweep is tests/runtime/test_admin_chinese.py).
A Django upgrade fails here first; re-check that ``admin_list._boolean_icon`` is still looked up at each
call by the change list and by ``display_for_field``, then rename this file and update ``CHECKED_AGAINST``."""

from __future__ import annotations

import inspect

from django.contrib.admin import utils as admin_utils
from django.contrib.admin.templatetags import admin_list
from django.db import models
from django.utils import translation

from lineup.internals import django_admin
from tests.support.pins import assert_checked_against


def test_the_pinned_and_installed_django_is_the_one_checked() -> None:
    assert_checked_against(django_admin.CHECKED_AGAINST, __file__)


def test_every_yes_no_icon_is_the_replaced_one_in_the_operators_language() -> None:
    # LineUp's admin module replaced it at import (lineup.admin, loaded by the admin's autodiscovery).
    assert admin_list._boolean_icon.__module__ == "lineup.admin"
    # display_for_field reaches it through the module, at each call: the replacement is what it shows.
    assert "_boolean_icon" in inspect.getsource(admin_utils.display_for_field)
    with translation.override("zh-hans"):
        shown = admin_utils.display_for_field(True, models.BooleanField(), "-")
    assert 'alt="是"' in shown and "icon-yes.svg" in shown
