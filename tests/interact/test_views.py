"""The Web Reference Host's HTTP views: login, the workspace page, the sandboxed Surface files."""

from __future__ import annotations

import pytest

from interact.surface_document import SDK_DIR
from miniapps.bundled import BUNDLED_MINIAPPS

pytestmark = pytest.mark.django_db


def test_the_root_redirects_to_the_workspace_which_needs_a_login(client):
    """ "/" -> /workspace/ -> the login page, which then leads back to the workspace."""
    assert client.get("/")["Location"] == "/workspace/"
    response = client.get("/workspace/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/workspace/"
    login = client.get("/accounts/login/")
    assert login.status_code == 200 and b"Sign in to your workspace" in login.content


def test_a_login_leads_to_the_workspace_page_with_its_own_strict_csp(client, user):
    """The workspace page loads its ES modules from /static/ only and can not be framed."""
    response = client.post("/accounts/login/", {"username": "ada", "password": "pw-ada-123"})
    assert response["Location"] == "/workspace/"
    page = client.get("/workspace/")
    assert page.status_code == 200
    assert b'<script type="module" src="/static/workspace/app.js">' in page.content
    assert b'id="lineup-boot"' in page.content and b'"app_id": "notes"' in page.content
    csp = page["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "'unsafe-" not in csp
    assert page["X-Frame-Options"] == "DENY"


@pytest.mark.spec("R-2.3.5")
@pytest.mark.parametrize("app_id", [name.rsplit(".", 1)[-1] for name in BUNDLED_MINIAPPS])
def test_a_surface_is_one_self_contained_document_whose_policy_names_no_url(client, app_id):
    """The entry comes with its scripts, styles and the SDK inlined, and a CSP (header and <meta>)
    that allows only those inline scripts by hash and names no URL — not 'self', not the bundle's
    path — so a framed Surface requests nothing from the server; sandboxed by the header too."""
    entry = client.get(f"/surfaces/{app_id}/")
    assert entry.status_code == 200 and entry["Content-Type"].startswith("text/html")
    page = entry.content.decode()
    assert "<script src=" not in page and "<link " not in page
    assert (SDK_DIR / "lineup-sdk.js").read_text(encoding="utf-8") in page  # the workspace SDK, inlined
    csp = entry["Content-Security-Policy"]
    directives = dict(d.split(" ", 1) for d in csp.split("; "))
    assert directives["default-src"] == "'none'"
    assert directives["connect-src"] == "'none'"
    assert directives["frame-src"] == "'none'"
    assert directives["form-action"] == "'none'"
    assert directives["base-uri"] == "'none'"
    assert directives["img-src"] == "data:" and directives["font-src"] == "data:"
    assert directives["sandbox"] == "allow-scripts"
    assert directives["frame-ancestors"] == "'self'"
    assert all(source.startswith("'sha256-") for source in directives["script-src"].split())
    assert "surfaces" not in csp and "'self'" not in directives["script-src"]
    assert entry["X-Frame-Options"] == "SAMEORIGIN"
    assert "camera=()" in entry["Permissions-Policy"]
    assert "Set-Cookie" not in entry


@pytest.mark.spec("R-2.3.5")
@pytest.mark.parametrize("url", ["/surfaces/notes/", "/surfaces/pomodoro/"])
def test_the_entry_page_runs_the_webrtc_guard_before_any_script_of_the_app(client, url):
    """No CSP covers WebRTC: the guard that removes it is the document's first script, right after
    the charset and its policy."""
    page = client.get(url).content.decode()
    first_script = page.index("<script>")
    assert page.index('<meta charset="utf-8">') < page.index('http-equiv="Content-Security-Policy"') < first_script
    assert page[first_script:].startswith("<script>/*\n * The first script of every MiniApp Surface document")


@pytest.mark.spec("R-2.3.5")
@pytest.mark.parametrize(
    "url",
    [
        "/surfaces/notes/notes.js",
        "/surfaces/notes/notes.css",
        "/surfaces/pomodoro/sdk/lineup-sdk.js",
        "/surfaces/notes/index.html",
    ],
)
def test_no_bundle_file_is_served_on_its_own(client, url):
    """Everything a Surface needs is in its document: no other URL under /surfaces/ answers."""
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/surfaces/pomodoro/../manifest.json",
        "/surfaces/pomodoro/%2e%2e/manifest.json",
        "/surfaces/pomodoro/sdk/../../manifest.json",
        "/surfaces/pomodoro/.hidden.js",
        "/surfaces/interact/",
        "/surfaces/nope/",
        "/surfaces/pomodoro/missing.js",
        "/surfaces/pomodoro/sdk/",
    ],
)
def test_nothing_outside_a_bundle_is_served(client, url):
    """No traversal out of the bundle, no dotfiles, no system app, no unknown app: 404."""
    assert client.get(url).status_code == 404


def test_surface_files_are_read_only(client):
    assert client.post("/surfaces/pomodoro/").status_code == 405
