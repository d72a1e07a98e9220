"""A MiniApp's private details (a quiz's answer key) appear on no admin page for staff without
``runtime.view_private_details``, and in no log line; staff with it see them on the detail pages."""

from __future__ import annotations

import logging

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.urls import NoReverseMatch, reverse

from runtime.models import Operation
from runtime.services.settlements import settle_operation
from runtime.transitions import Trigger
from tests.support.factories import at

PLANTED = "Zebra-Answer-7f3q"
OTHER = "Okapi-Answer-9k2w"  # searched pages echo PLANTED in their search box: they must not show this one
QUESTIONS = [{"prompt": "the secret word?", "answer": PLANTED}, {"prompt": "and again?", "answer": OTHER}]


def _staff(django_user_model, name: str, *, private: bool):
    user = django_user_model.objects.create_user(username=name, password="pw-staff-123", is_staff=True)
    views = Permission.objects.filter(codename__startswith="view_").exclude(codename="view_private_details")
    user.user_permissions.set(list(views))
    if private:
        user.user_permissions.add(Permission.objects.get(codename="view_private_details"))
    return user


def _admin_pages(client) -> dict[str, object]:
    """Every page a staff user can reach in the admin: index, app indexes, each registered model's
    list (plain and searched for the planted answer), and each object's change and history page."""
    pages: dict[str, object] = {reverse("admin:index"): None}
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        pages[reverse("admin:app_list", args=[meta.app_label])] = None
        try:
            changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        except NoReverseMatch:
            continue
        pages[changelist] = None
        pages[f"{changelist}?q={PLANTED}"] = None
        for pk in model_admin.get_queryset(_Request()).values_list("pk", flat=True)[:20]:
            for name in ("change", "history"):
                pages[reverse(f"admin:{meta.app_label}_{meta.model_name}_{name}", args=[pk])] = None
    for url in pages:
        response = client.get(url, follow=True)
        pages[url] = response
    return pages


class _Request:
    """Enough of a request for ``get_queryset`` (the admins here read no attribute of it but these)."""

    user = None
    GET: dict = {}


@pytest.mark.spec("R-2.2.3")
def test_a_planted_answer_key_is_on_no_admin_page_and_in_no_log_line(
    transactional_db, agent, conversation, client, django_user_model, caplog, capfd
):
    caplog.set_level(logging.DEBUG)
    started = agent.call("quiz.start", {"duration_seconds": 300, "title": "sweep", "questions": QUESTIONS}, now=at(0))
    settle_operation(operation_id=started.operation_id, trigger=Trigger.DEADLINE, now=at(300))
    assert PLANTED in str(Operation.objects.get(pk=started.operation_id).details)  # it is there to leak

    client.force_login(_staff(django_user_model, "viewer", private=False))
    pages = _admin_pages(client)
    shown = [url for url, response in pages.items() if response.status_code == 200]
    assert len(shown) > 30, pages  # the sweep reached the pages
    operation_page = reverse("admin:runtime_operation_change", args=[started.operation_id])
    assert operation_page in shown
    leaks = [
        url
        for url, response in pages.items()
        if OTHER in (text := response.content.decode(errors="replace")) or ("?q=" not in url and PLANTED in text)
    ]
    assert leaks == []

    logged = caplog.text + "".join(capfd.readouterr())
    assert "operation.started" in logged  # the start's line was captured
    assert PLANTED not in logged and OTHER not in logged

    # Staff with the permission of their own see it where it is: the operation's page.
    client.force_login(_staff(django_user_model, "keeper", private=True))
    assert PLANTED in client.get(operation_page).content.decode()
