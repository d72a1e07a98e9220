"""The workspace in English and Simplified Chinese (Django's i18n: LocaleMiddleware, catalogs, set_language).

The zh-Hans catalogs are checked for what a person would meet as English in a Chinese page: a
string of the templates or of ``static/workspace/*.js`` missing from its catalog, an entry left
untranslated or fuzzy, a placeholder lost in translation, or a compiled ``.mo`` out of step with
its ``.po`` (the ``.mo`` files are committed, so a fresh clone needs no ``msgfmt``).
"""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

import pytest
from django.conf import settings

from interact.models import LanguagePreference
from tests.support.po import parse_po

ROOT = Path(settings.BASE_DIR)
CATALOGS = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES"
DOMAINS = ("django", "djangojs")
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}|<[^>]+>")
# The string arguments of gettext / ngettext / pgettext calls in the page's modules, and of
# {% translate %} / {% blocktranslate %} in the templates: what has to be in the catalogs.
JS_CALL = re.compile(r"\b(?:gettext|ngettext)\(\s*\"((?:[^\"\\]|\\.)*)\"")
TEMPLATE_TRANSLATE = re.compile(r"{%\s*translate\s+([\"'])(.*?)\1\s*%}")
TEMPLATE_BLOCK = re.compile(r"{%\s*blocktranslate(?:\s+with\s+(\w+)=[^%]*)?\s*%}(.*?){%\s*endblocktranslate\s*%}", re.S)


def entries(domain: str):
    return [e for e in parse_po((CATALOGS / f"{domain}.po").read_text(encoding="utf-8")) if e.msgid and not e.obsolete]


def msgids(domain: str) -> set[str]:
    return {e.msgid for e in entries(domain)}


@pytest.mark.spec("R-4.1.1")
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_zh_hans_entry_is_translated_with_its_placeholders(domain):
    """No empty or fuzzy msgstr, and every %(name)s, {focus} and tag of the English survives."""
    problems = []
    for entry in entries(domain):
        if not entry.translated:
            problems.append(f"untranslated: {entry.msgid!r}")
            continue
        for translation in entry.translations:
            if sorted(PLACEHOLDER.findall(translation)) != sorted(PLACEHOLDER.findall(entry.msgid)):
                problems.append(f"placeholders differ: {entry.msgid!r} -> {translation!r}")
    assert not problems, "\n".join(problems)
    assert len(entries(domain)) > 20


@pytest.mark.spec("R-4.1.1")
def test_every_string_of_the_page_is_in_the_catalogs():
    """A gettext() in static/workspace or a {% translate %} in templates/ that makemessages has not
    been run for yet would show English on a Chinese page."""
    js = set()
    for path in (ROOT / "static" / "workspace").glob("*.js"):
        js.update(m.replace('\\"', '"') for m in JS_CALL.findall(path.read_text(encoding="utf-8")))
    templates = set()
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        templates.update(m[1] for m in TEMPLATE_TRANSLATE.findall(text))
        for _var, body in TEMPLATE_BLOCK.findall(text):
            templates.add(re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", body))
    assert len(js) > 50 and len(templates) > 20
    assert js - msgids("djangojs") == set(), "run manage.py makemessages -l zh_Hans -d djangojs"
    assert templates - msgids("django") == set(), "run manage.py makemessages -l zh_Hans"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogs_are_in_step_with_the_po_files(domain):
    """The .mo Django loads says what the .po says (manage.py compilemessages after every edit)."""
    with (CATALOGS / f"{domain}.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for entry in entries(domain):
        if entry.msgid_plural is not None:
            assert compiled.ngettext(entry.msgid, entry.msgid_plural, 1) == entry.msgstr_plural[0], entry.msgid
        elif entry.msgctxt is not None:  # pgettext: the same words in another sense
            assert compiled.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr, (entry.msgctxt, entry.msgid)
        else:
            assert compiled.gettext(entry.msgid) == entry.msgstr, entry.msgid


@pytest.mark.django_db
@pytest.mark.spec("R-4.1.1")
def test_the_browser_language_is_the_default_and_english_the_fallback(client):
    chinese = client.get("/accounts/login/", headers={"accept-language": "zh-CN,zh;q=0.9,en;q=0.5"})
    assert '<html lang="zh-hans">' in chinese.text and "登录你的工作区" in chinese.text
    assert chinese["Content-Language"] == "zh-hans"
    english = client.get("/accounts/login/", headers={"accept-language": "fr-FR,fr;q=0.9"})
    assert '<html lang="en">' in english.text and "Sign in to your workspace" in english.text


@pytest.mark.django_db
@pytest.mark.spec("R-4.1.1")
def test_the_javascript_catalog_follows_the_language(client):
    catalog = client.get("/jsi18n/", headers={"accept-language": "zh-Hans"})
    assert catalog.status_code == 200 and "javascript" in catalog["Content-Type"]
    assert json.dumps({"Dismiss": "忽略"})[1:-1] in catalog.text


@pytest.mark.django_db
@pytest.mark.spec("R-4.1.1")
def test_a_chosen_language_is_kept_for_the_person_on_every_device(client, user):
    """set_language sets the cookie and saves the choice; a new session (no cookie, an English
    browser) gets the saved language back after signing in."""
    client.force_login(user)
    response = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/workspace/"})
    assert response.status_code == 302 and response["Location"] == "/workspace/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    assert LanguagePreference.objects.get(user=user).language == "zh-hans"

    client.cookies.clear()
    client.force_login(user)
    page = client.get("/workspace/", headers={"accept-language": "en-GB"})
    assert '<html lang="zh-hans">' in page.text and "跳到消息输入框" in page.text

    client.post("/i18n/setlang/", {"language": "klingon", "next": "/workspace/"})
    assert LanguagePreference.objects.get(user=user).language == "zh-hans"
    client.post("/i18n/setlang/", {"language": "en", "next": "/workspace/"})
    assert LanguagePreference.objects.get(user=user).language == "en"


@pytest.mark.django_db
def test_the_language_switch_is_a_plain_form_that_works_without_javascript(client):
    page = client.get("/accounts/login/", headers={"accept-language": "en"})
    assert 'action="/i18n/setlang/"' in page.text
    assert 'name="language" value="zh-hans"' in page.text and 'lang="zh-hans"' in page.text
