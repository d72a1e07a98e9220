"""HTTP views of the Web Reference Host: the workspace page and the sandboxed MiniApp Surfaces.

``workspace`` is the page a logged-in person works in; everything live on it comes over
``/ws/workspace/`` (``interact.consumers``), so the page itself carries only what does not change
while it is open (who is logged in, which apps can be opened by hand).

``agents`` is the person's Agents page: their Agents with last-seen time and live connections,
creating a token (shown once) and revoking one, and for each conversation the MCP URL and the
configurations of the usual clients (``interact.agent_setup``).

``surface`` serves a bundled MiniApp's Surface (``miniapps/<app>/surface/``) as one self-contained
document — its scripts, styles and the MiniApp SDK inlined (``interact.surface_document``) — with a
Content-Security-Policy that allows only those inline scripts and names no URL: no network, no
frames, no forms, not even its own bundle's path, and that sandboxes the document even if it is
opened outside the host's ``<iframe sandbox="allow-scripts">`` (SPEC R-2.3.5, acceptance 12). A
framed Surface requests nothing from the server. These responses hold no user data and need no
login: whatever a Surface shows arrives through the host's MessagePort.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext, gettext_noop
from django.views import i18n as i18n_views
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from interact.agent_setup import agent_socket_hello, mcp_configurations
from interact.services.preferences import language_preference_set
from interact.surface_document import surface_document
from runtime.clock import isoformat
from runtime.manifests import Manifest, get_manifest, registry
from runtime.models import AgentToken
from runtime.selectors import agents_of_user, conversations_of_user
from runtime.services.agents import (
    AgentNameError,
    BuiltinAgentError,
    create_agent_token,
    liveness_window,
    revoke_own_agent_token,
)
from runtime.services.conversations import conversation_get_or_create_default

# Headers only: what a <meta> policy can not say. The document runs with an opaque origin (``sandbox
# allow-scripts`` without allow-same-origin, here and on the host's iframe) and only in LineUp's pages.
_SURFACE_FRAMING = "frame-ancestors 'self'; sandbox allow-scripts"


# No device or system API either: denied to the Surface whatever its code asks for.
SURFACE_PERMISSIONS = ", ".join(
    f"{feature}=()"
    for feature in (
        "camera",
        "microphone",
        "geolocation",
        "usb",
        "serial",
        "hid",
        "payment",
        "display-capture",
        "clipboard-read",
        "clipboard-write",
        "fullscreen",
        "screen-wake-lock",
        "idle-detection",
    )
)

# The workspace page itself: its own scripts and styles, its own WebSocket, Surfaces as frames.
WORKSPACE_CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "frame-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    ]
)


# The bundled apps' manifest names, marked for the catalog (makemessages): ``gettext(manifest.name)``
# then shows them in the page's language; another app's name is shown as its manifest says.
BUNDLED_APP_NAMES = (
    gettext_noop("Interact"),
    gettext_noop("Pomodoro"),
    gettext_noop("Scratch notes"),
    gettext_noop("Practice quiz"),
)
# The words the bundled apps' manifests give a running operation (``deadline_operation.running_label``).
BUNDLED_RUNNING_LABELS = (gettext_noop("running"), gettext_noop("focusing"))


def _in_language(manifest: Manifest, key: str, english: str) -> str:
    """One of the app's words in the active language: its manifest's own ``translations`` (an app
    that is not bundled brings them), else the project's catalog, else the manifest's English."""
    return manifest.words(get_language()).get(key) or gettext(english)


def app_names() -> dict[str, str]:
    """Every registered app's name in the active language, for the page to label chips and blocks."""
    return {m.app_id: _in_language(m, "name", m.name) for m in registry().values()}


def running_labels() -> dict[str, str]:
    """What each app with a deadline operation is called while one runs, in the active language."""
    return {
        m.app_id: _in_language(m, "running_label", tool.operation.running_label)
        for m in registry().values()
        for tool in m.tools
        if tool.operation is not None
    }


def launchable_apps() -> list[dict[str, str]]:
    """The MiniApps a person may open by hand (the others are started by the Agent)."""
    return [
        {"app_id": m.app_id, "name": _in_language(m, "name", m.name)}
        for m in sorted(registry().values(), key=lambda m: m.name)
        if m.user_launchable and not m.is_system and m.surface_entry
    ]


@require_safe
@login_required
def workspace(request: HttpRequest) -> HttpResponse:
    response = render(
        request,
        "workspace/workspace.html",
        {
            "boot": {
                "user": request.user.get_username(),
                # Known before the socket is: the message box sends (or keeps) from the first paint.
                "conversation_id": str(conversation_get_or_create_default(user=request.user).id),
                "launchable_apps": launchable_apps(),
                "app_names": app_names(),
                "running_labels": running_labels(),
            }
        },
    )
    response["Content-Security-Policy"] = WORKSPACE_CSP
    response["Referrer-Policy"] = "same-origin"
    return response


def _seen(at: datetime | None, now: datetime) -> dict[str, Any] | None:
    """A time for the page: ISO with seconds (machine and tooltip), and whether it was just now."""
    if at is None:
        return None
    return {"at": at, "iso": isoformat(at), "just_now": (now - at).total_seconds() < 60}


def _agents_page(
    request: HttpRequest, *, created: dict[str, Any] | None = None, error: str = "", status: int = 200
) -> HttpResponse:
    now = timezone.now()
    conversation_get_or_create_default(user=request.user)  # the one an Agent's MCP URL names first
    token = created["token"] if created else None
    scheme = "wss" if request.is_secure() else "ws"
    conversations = [
        {
            "conversation": conversation,
            "mcp_url": request.build_absolute_uri(f"/mcp/{conversation.id}/"),
            "configurations": mcp_configurations(
                mcp_url=request.build_absolute_uri(f"/mcp/{conversation.id}/"), token=token
            ),
        }
        for conversation in conversations_of_user(user_id=request.user.pk)
    ]
    agents = [
        {"summary": summary, "last_seen": _seen(summary.last_seen_at, now)}
        for summary in agents_of_user(user_id=request.user.pk, now=now, window=liveness_window())
    ]
    response = render(
        request,
        "workspace/agents.html",
        {
            "user_name": request.user.get_username(),
            "agents": agents,
            "conversations": conversations,
            "created": created,
            "error": error,
            "agent_socket_url": f"{scheme}://{request.get_host()}/ws/agent/",
            "agent_socket_hello": agent_socket_hello(token=token),
        },
        status=status,
    )
    response["Content-Security-Policy"] = WORKSPACE_CSP
    response["Referrer-Policy"] = "same-origin"
    response["Cache-Control"] = "no-store"  # it may show a token, once
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def agents(request: HttpRequest) -> HttpResponse:
    """The person's Agents; a POST creates a token for the Agent named in the form, shown in this answer only."""
    if request.method != "POST":
        return _agents_page(request)
    name = request.POST.get("name", "")
    try:
        agent, token = create_agent_token(user=request.user, name=name, now=timezone.now())
    except AgentNameError:
        return _agents_page(request, error=gettext("Give the Agent a name of 1 to 100 characters."), status=400)
    except BuiltinAgentError:
        return _agents_page(
            request,
            error=gettext("“%(name)s” is the name of the built-in Agent, which LineUp runs itself. Pick another name.")
            % {"name": name.strip()},
            status=400,
        )
    return _agents_page(request, created={"agent": agent, "token": token})


@require_POST
@login_required
def agent_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the person's own tokens; back to the Agents page, which says so."""
    try:
        revoked = revoke_own_agent_token(user=request.user, token_id=token_id, now=timezone.now())
    except AgentToken.DoesNotExist:
        raise Http404("no such token") from None
    if revoked:
        messages.success(request, gettext("Token revoked. Requests with it are refused from now on."))
    return redirect(reverse("agents"))


@require_safe
@xframe_options_sameorigin
def surface(request: HttpRequest, app_id: str) -> HttpResponse:
    """App ``app_id``'s Surface: one self-contained document (``interact.surface_document``).

    Its policy names no URL at all, so once framed it requests nothing from the server: not its
    bundle (inlined), not a URL it would put data in ("<script src=/surfaces/app/x?secret>").
    """
    manifest = get_manifest(app_id)
    if manifest is None or manifest.is_system or not manifest.surface_entry:
        raise Http404("no such surface")
    document = surface_document(app_id)  # a bundle it can not inline is a deploy's bug: a 500, logged
    response = HttpResponse(document.html, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = f"{document.policy}; {_SURFACE_FRAMING}"
    response["Permissions-Policy"] = SURFACE_PERMISSIONS
    response["Referrer-Policy"] = "no-referrer"
    # Bundles change with the code; a stale cached Surface talking to a newer host is worse than a refetch.
    response["Cache-Control"] = "no-cache"
    return response


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, the redirect back), and the choice saved for a signed-in person."""
    if request.user.is_authenticated:
        language_preference_set(user=request.user, language=request.POST.get("language", ""))
    return i18n_views.set_language(request)
