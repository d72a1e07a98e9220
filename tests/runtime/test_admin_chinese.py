"""The operator's admin fully in zh-hans: model and field names, choices and state values, help
texts and Django's own sentences built from them ("选择 操作 来查看", not "选择operation来查看");
and operation search finds the activity (in the generic operation's ``details``).

Pages are fetched with Django's test client against real PostgreSQL, rows built through the real
Tool Router (the ``scenario`` of ``test_admin``).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from interact.models import LanguagePreference
from runtime.models import Operation
from runtime.transitions import OperationState
from tests.runtime.test_admin import (  # noqa: F401 - fixtures
    Scenario,
    admin_url,
    changelist_results,
    fast_password_hashing,
    scenario,
)

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u4e00-\u9fff]")
# Names that stay as they are in Chinese (product and protocol names, identifiers).
KEPT = {"ID", "Agent", "MCP", "LineUp"}
# Django 5.2's own hidden headers of the sidebar's model table, missing from its zh_Hans catalogue.
DJANGOS = {"Model name", "Add link", "Change or view list link"}
# LineUp's own models; Django's (users, groups) and django-axes' bring their own catalogues.
OURS = ("runtime", "interact")


class Labels(HTMLParser):
    """The words an operator reads as labels: column headers, filter titles, field labels, the title."""

    def __init__(self) -> None:
        super().__init__()
        self.labels: list[str] = []
        self._open: list[str] = []  # the tag whose text is being collected (one at a time)
        self._text: list[str] = []
        self._in_filter = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        classes = (attr.get("class") or "").split()
        if attr.get("id") == "changelist-filter":
            self._in_filter = True
        if self._open:
            return
        if (
            (tag == "th" and attr.get("scope") == "col" and "action-checkbox-column" not in classes)
            or tag in ("label", "h1")
            or (tag == "h3" and self._in_filter)
            or (tag == "div" and "help" in classes)
        ):
            self._open.append(tag)
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if self._open and tag == self._open[-1]:
            self._open.pop()
            text = " ".join("".join(self._text).split()).strip(" :\uff1a")
            if text:
                self.labels.append(text)

    def handle_data(self, data: str) -> None:
        if self._open:
            self._text.append(data)


def english_labels(html: str) -> list[str]:
    parser = Labels()
    parser.feed(html)
    return [
        label
        for label in parser.labels
        if not CJK.search(label) and label not in KEPT | DJANGOS and re.search("[A-Za-z]{2}", label)
    ]


@pytest.mark.spec("R-4.1.1")
def test_every_admin_page_of_lineup_speaks_chinese_to_a_staff_user_who_chose_it(
    admin_client: Client,
    admin_user,
    scenario: Scenario,  # noqa: F811 - the fixture imported above
):
    """Each changelist and a real row's detail page of every LineUp model: the title, the column
    headers, the filter titles, the field labels and help texts are Chinese; state values too."""
    LanguagePreference.objects.create(user=admin_user, language="zh-hans")
    checked = 0
    for model in admin.site._registry:
        if model._meta.app_label not in OURS:
            continue
        listing = admin_client.get(admin_url(model, "changelist"))
        assert listing.status_code == 200, model
        page = listing.content.decode()
        assert english_labels(page) == [], (model.__name__, english_labels(page))
        row = model.objects.first()
        if row is not None:
            detail = admin_client.get(admin_url(model, "change", row.pk)).content.decode()
            assert english_labels(detail) == [], (model.__name__, english_labels(detail))
            checked += 1
    assert checked >= 8

    # Django's own sentences built from LineUp's names, and the state values in the list.
    operations = admin_client.get(admin_url(Operation, "changelist")).content.decode()
    assert "选择operation" not in operations and "操作" in operations
    assert "专注中" in operations and "已完成" in operations
    index = admin_client.get(reverse("admin:index")).content.decode()
    for name in ("操作", "工具调用", "应用实例", "生命周期事件", "消息", "交互"):
        assert name in index, name


@pytest.mark.spec("R-4.1.1")
def test_the_operations_list_in_english_keeps_readable_english_labels(
    admin_client: Client,
    scenario: Scenario,  # noqa: F811 - the fixture imported above
):
    """The English admin keeps English words (the labels are translations, not replacements)."""
    page = admin_client.get(admin_url(Operation, "changelist")).content.decode()
    assert "Select operation to view" in page
    # The same reader finds these English headers: it is what makes the Chinese check able to fail.
    assert {"State", "Details", "Times", "Settlement lag"} <= set(english_labels(page))
    assert "Focusing" in page or "focusing" in page
    assert not CJK.search(page)


@pytest.mark.spec("R-4.1.1")
def test_operation_search_finds_the_activity(
    admin_client: Client,
    scenario: Scenario,  # noqa: F811 - the fixture imported above
):
    """The activity lives in the generic operation's details: searching for it lists that focus."""
    assert scenario.completed.details.get("activity") == "write the report"
    found = changelist_results(admin_client, Operation, q="the report")
    assert [op.pk for op in found] == [scenario.completed.pk]
    assert changelist_results(admin_client, Operation, q="no such activity") == []
    focusing = changelist_results(admin_client, Operation, q=scenario.focusing.source_tool_call_id)
    assert [op.pk for op in focusing] == [scenario.focusing.pk]
    assert focusing[0].state == OperationState.RUNNING
