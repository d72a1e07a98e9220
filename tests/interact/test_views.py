"""The Web Reference Host's HTTP views: login, the workspace page, the sandboxed Surface files."""

from __future__ import annotations

import pytest

from interact.views import surface_csp

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
def test_surface_files_are_served_sandboxed_with_no_network_and_only_their_bundle(client):
    """Entry, assets and the SDK come with the Surface CSP: scripts, styles, images and fonts
    only from /surfaces/<app>/, no connections, frames, forms or base, sandboxed by the header too."""
    entry = client.get("/surfaces/pomodoro/")
    assert entry.status_code == 200 and entry["Content-Type"].startswith("text/html")
    assert b'src="sdk/lineup-sdk.js"' in entry.content
    sdk = client.get("/surfaces/pomodoro/sdk/lineup-sdk.js")
    assert sdk.status_code == 200 and sdk["Content-Type"].startswith("text/javascript")
    script = client.get("/surfaces/notes/notes.js")
    assert script.status_code == 200
    for response in (entry, sdk, script):
        csp = response["Content-Security-Policy"]
        directives = dict(d.split(" ", 1) for d in csp.split("; "))
        assert directives["default-src"] == "'none'"
        assert directives["connect-src"] == "'none'"
        assert directives["frame-src"] == "'none'"
        assert directives["form-action"] == "'none'"
        assert directives["base-uri"] == "'none'"
        assert directives["sandbox"] == "allow-scripts"
        assert "'self'" not in directives["script-src"] and "'unsafe" not in csp
        assert response["X-Frame-Options"] == "SAMEORIGIN"
        assert "camera=()" in response["Permissions-Policy"]
        assert "Set-Cookie" not in response


@pytest.mark.spec("R-2.3.5")
@pytest.mark.parametrize("url", ["/surfaces/notes/", "/surfaces/notes/index.html", "/surfaces/pomodoro/"])
def test_the_entry_page_runs_the_webrtc_guard_before_any_script_of_the_app(client, url):
    """No CSP covers WebRTC: the guard that removes it is the entry page's first script, right after the charset."""
    page = client.get(url).content.decode()
    assert page.count('<script src="sdk/lineup-guard.js"></script>') == 1
    assert page.index('<meta charset="utf-8"><script src="sdk/lineup-guard.js"></script>') < page.index(
        '<script src="sdk/lineup-sdk.js'
    )
    guard = client.get(url.rsplit("/", 1)[0] + "/sdk/lineup-guard.js")
    assert guard.status_code == 200 and b"RTC" in b"".join(guard.streaming_content)
    # Other files of the bundle are served as they are.
    assert b"lineup-guard" not in b"".join(client.get("/surfaces/notes/notes.css").streaming_content)


def test_the_surface_csp_names_only_the_apps_own_bundle_path(rf, settings):
    """Not 'self': a Surface could otherwise send data in the URL of any script or image it adds."""
    settings.ALLOWED_HOSTS = ["lineup.example"]
    csp = surface_csp(rf.get("/surfaces/notes/", HTTP_HOST="lineup.example:8000"), "notes")
    assert "script-src lineup.example:8000/surfaces/notes/;" in csp
    assert "img-src lineup.example:8000/surfaces/notes/ data:;" in csp
    assert csp.count("lineup.example:8000/surfaces/notes/") == 4


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
