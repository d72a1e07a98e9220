"""The operator's admin fully in zh-hans: model and field names, choices and state values, help
texts and Django's own sentences built from them ("选择 操作 来查看", not "选择operation来查看");
what a screen reader reads (hidden table heads, icons' alternative text) and the object titles
(breadcrumbs, page titles, links, the details column) on LineUp's pages and django-axes' (issue 40);
and operation search finds the activity (in the generic operation's ``details``).

Pages are fetched with Django's test client against real PostgreSQL, rows built through the real
Tool Router (the ``scenario`` of ``test_admin``).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from interact.models import LanguagePreference
from runtime.miniapps import registered_tools
from runtime.models import Conversation, Operation
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
KEPT = {"ID", "Agent", "MCP", "LineUp", "MiniApp", "IP", "worker", "beat"}
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
        if not CJK.search(label) and label not in KEPT and re.search("[A-Za-z]{2}", label)
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
    assert "60 秒" in operations and "60 s" not in operations  # a duration's unit too (issue 40)
    index = admin_client.get(reverse("admin:index")).content.decode()
    for name in ("操作", "工具调用", "应用实例", "生命周期事件", "消息", "交互"):
        assert name in index, name
    assert "运行中，结束时间未到" in index and "专注" not in index  # noqa: RUF001 - the dashboard row, no MiniApp word


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


VOID = {"img", "input", "br", "hr", "meta", "link", "col", "wbr", "source"}  # no end tag


class ReadAloud(HTMLParser):
    """What a screen reader reads besides the labels, and the object titles: every table head (the
    hidden ones too), ``alt`` / ``aria-label`` / ``title`` texts, the page title, the breadcrumbs,
    the change page's heading and the result list's cells."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._depth: list[str] = []  # open tags whose text is collected
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        for name in ("alt", "aria-label", "title"):
            if attr.get(name):
                self.texts.append(attr[name] or "")
        if tag in VOID:
            return
        if self._depth:
            self._depth.append(tag)
            return
        classes = (attr.get("class") or "").split()
        if tag in ("th", "title", "h2", "td", "option") or (tag == "div" and "breadcrumbs" in classes):
            self._depth.append(tag)
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if not self._depth:
            return
        self._depth.pop()
        if not self._depth:
            text = " ".join("".join(self._text).split())
            if text:
                self.texts.append(text)

    def handle_data(self, data: str) -> None:
        if self._depth:
            self._text.append(data)


UUID_OR_HEX = re.compile(r"\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b|\b[0-9a-f]{8,}\b|\b[0-9a-f]{8}\b")
IDENTIFIER = re.compile(r"[\w@]+(?:[._:/-][\w@]+)+")  # tool names, event kinds, e-mail, keys: data


def english_read_aloud(html: str, data: set[str]) -> list[str]:
    """Texts with an English word left once the data (names people typed, ids, app ids) is taken out."""
    parser = ReadAloud()
    parser.feed(html)
    found = []
    for text in parser.texts:
        rest = IDENTIFIER.sub(" ", UUID_OR_HEX.sub(" ", text))
        for value in sorted(data, key=len, reverse=True):
            rest = rest.replace(value, " ")
        words = [w for w in re.findall(r"[A-Za-z]{2,}", rest) if w not in KEPT]
        if words:
            found.append(text)
    return sorted(set(found))


@pytest.mark.spec("R-4.1.1")
def test_what_a_screen_reader_reads_and_the_object_titles_are_chinese_too(
    admin_client: Client,
    admin_user,
    scenario: Scenario,  # noqa: F811 - the fixture imported above
):
    """Every changelist and a row's page of LineUp's models and django-axes', the user list and a
    user's page (every permission's name):
    no English in the hidden table heads, the icons' alternative text, the page titles, the
    breadcrumbs, the object titles ("操作 … (已完成)" in full-width brackets, "主对话", not "operation … (completed)",
    "Main"), and the details column (an activity the person did not give is not "activity: None")."""
    LanguagePreference.objects.create(user=admin_user, language="zh-hans")
    AccessAttempt.objects.create(username="mallory", ip_address="10.0.0.9", failures_since_start=3)
    AccessLog.objects.create(username=admin_user.username, ip_address="10.0.0.1")
    AccessFailureLog.objects.create(username="mallory", ip_address="10.0.0.9", locked_out=True)
    assert scenario.focusing.details.get("activity") is None  # the list must not say "None"
    # Data, not words: names people typed and identifiers.
    data = {u.username for u in get_user_model().objects.all()} | {"mallory", "example.com", "<unknown>"}
    data |= {c.title for c in Conversation.objects.exclude(title__in=["Main", "Conversation"])}
    data |= {str(a) for a in Operation.objects.values_list("details__activity", flat=True) if a}
    data |= {tool.split(".")[0] for tool in registered_tools()} | {"interact"}
    data |= {"md5", "pbkdf2_sha256"}  # a password hash's algorithm
    # The user list (yes/no icons) and a user's page (the permissions, by name).
    pages = [reverse("admin:index"), reverse("admin:auth_user_changelist")]
    pages.append(reverse("admin:auth_user_change", args=[admin_user.pk]))
    for model in admin.site._registry:
        if model._meta.app_label not in (*OURS, "axes"):
            continue
        pages.append(admin_url(model, "changelist"))
        row = model.objects.first()
        if row is not None:
            pages.append(admin_url(model, "change", row.pk))
    assert len(pages) >= 24
    left = {}
    for url in pages:
        response = admin_client.get(url)
        assert response.status_code == 200, url
        if found := english_read_aloud(response.content.decode(), data):
            left[url] = found
    assert left == {}, json.dumps(left, ensure_ascii=False, indent=1)

    # The reader finds them in English: what makes the check able to fail.
    LanguagePreference.objects.filter(user=admin_user).update(language="en")

    def english(url: str) -> list[str]:
        return english_read_aloud(admin_client.get(url).content.decode(), data)

    assert "Model name" in english(reverse("admin:index"))
    completed = english(admin_url(Operation, "change", scenario.completed.pk))
    assert any(text.startswith(f"operation {scenario.completed.pk} (completed)") for text in completed), completed
    assert "Main" in english(admin_url(Conversation, "changelist"))
    assert "activity: write the report" in english(admin_url(Operation, "changelist"))
    assert "Runtime | operation | Can view operation" in english(
        reverse("admin:auth_user_change", args=[admin_user.pk])
    )
