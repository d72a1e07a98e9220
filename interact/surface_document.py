"""A MiniApp Surface as one self-contained HTML document: what every host frames.

A Surface document requests nothing from the server (decision 0006): the Web host serves the entry
page at ``/surfaces/<app>/`` with everything inlined, and an MCP Apps host renders the same kind of
document from ``resources/read`` (``ui://lineup/<app>``, ``lineup.gateways.mcp.apps``). The entry
page is rewritten: its stylesheets become ``<style>``, its scripts ``<script>`` (the deferred ones at
the end of ``<body>``, where ``defer`` would have run them), and the LineUp SDK is the host's flavour
— the workspace's ``lineup-sdk.js``, or for MCP Apps the official guest ``App`` of
``@modelcontextprotocol/ext-apps`` (``miniapps/sdk/mcp-apps/``) under the same ``LineUp`` API
(``miniapps/sdk/lineup-sdk-mcp-apps.js``). The Surface's own code is the same file either way.

The document carries its own Content-Security-Policy (a ``<meta>``): no network of any kind, no
frames, no forms, and only the inline scripts it was built with (by sha256). Its first script is the
SDK's guard (``miniapps/sdk/lineup-guard.js``), which removes WebRTC, the one network no CSP covers.
An MCP Apps host applies its own policy from ``_meta.ui.csp`` as well; this one holds even in a host
that applies none. The Web host sends the same policy as a header too, with the sandbox and
``frame-ancestors`` a ``<meta>`` can not carry. A reference left in the page (an ``src`` or ``href``
the rewrite did not inline) is an error, never served.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

from django.conf import settings

from runtime.manifests import get_manifest

SDK_DIR = Path(settings.BASE_DIR) / "miniapps" / "sdk"
WORKSPACE_SDK = "sdk/lineup-sdk.js"
WEB_SDK = ("lineup-sdk.js",)
# What the workspace SDK becomes in an MCP Apps host: the official guest App, then LineUp's API over it.
MCP_APPS_SDK = ("mcp-apps/ext-apps-app.js", "lineup-sdk-mcp-apps.js")
# Runs before anything else in the document: removes the WebRTC constructors (decision 0006).
GUARD_SCRIPT = "lineup-guard.js"

_STYLESHEET = re.compile(r'<link rel="stylesheet" href="(?P<href>[^"]+)">')
_SCRIPT = re.compile(r'<script src="(?P<src>[^"]+)"(?P<defer> defer)?></script>')
_CHARSET = '<meta charset="utf-8">'
_REFERENCE = re.compile(r"""\s(?:src|href|srcset|action|formaction|poster|data)\s*=""", re.IGNORECASE)

_POLICY = [
    "default-src 'none'",
    "script-src {scripts}",
    "style-src 'unsafe-inline'",
    "img-src data:",
    "font-src data:",
    "media-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "manifest-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
]


class SurfaceDocumentError(Exception):
    """The Surface's entry page could not be made self-contained (a reference the rewrite does not know)."""


@dataclass(frozen=True)
class SurfaceDocument:
    html: str
    policy: str  # the Content-Security-Policy in its <meta>: only its own inline scripts, no network


@cache
def surface_document(app_id: str, *, sdk: tuple[str, ...] = WEB_SDK, extra_head: str = "") -> SurfaceDocument:
    """App ``app_id``'s Surface with every script and style inline and the ``sdk`` files (in
    ``miniapps/sdk/``) for the workspace SDK; ``extra_head`` (not a script the policy must allow) after
    the guard.

    Built once per process: the bundle files change only with a deploy.
    """
    manifest = get_manifest(app_id)
    if manifest is None or manifest.is_system or not manifest.surface_entry:
        raise SurfaceDocumentError(f"{app_id} has no Surface")
    entry = PurePosixPath(manifest.surface_entry)
    bundle = (manifest.path.parent / Path(*entry.parent.parts)).resolve()
    page = (bundle / entry.name).read_text(encoding="utf-8")
    scripts: list[str] = []  # every inline script's text, for the policy's hashes

    def script(text: str) -> str:
        if "</script" in text.lower():
            raise SurfaceDocumentError("a script contains </script and can not be inlined")
        scripts.append(text)
        return f"<script>{text}</script>"

    def inline_style(match: re.Match[str]) -> str:
        return f"<style>{_read(bundle, match['href'])}</style>"

    deferred: list[str] = []

    def inline_script(match: re.Match[str]) -> str:
        src = match["src"]
        if src == WORKSPACE_SDK:
            return "".join(script(_read(SDK_DIR, name)) for name in sdk)
        text = script(_read(SDK_DIR, src.removeprefix("sdk/")) if src.startswith("sdk/") else _read(bundle, src))
        if match["defer"]:
            deferred.append(text)
            return ""
        return text

    page = _STYLESHEET.sub(inline_style, page)
    page = _SCRIPT.sub(inline_script, page)
    if "</body>" not in page or _CHARSET not in page:
        raise SurfaceDocumentError(f"{app_id}'s entry page needs {_CHARSET} and </body>")
    page = page.replace("</body>", "".join(deferred) + "</body>", 1)
    leftover = _REFERENCE.search(_without_scripts(page))
    if leftover:
        raise SurfaceDocumentError(f"{app_id}'s entry page still refers to a file: {leftover.group(0)!r}")
    guard = script(_read(SDK_DIR, GUARD_SCRIPT))
    policy = _policy(scripts)
    head = (
        f'{_CHARSET}\n  <meta http-equiv="Content-Security-Policy" content="{html.escape(policy, quote=False)}">\n'
        f"  {guard}{extra_head}"
    )
    return SurfaceDocument(html=page.replace(_CHARSET, head, 1), policy=policy)


def _policy(scripts: list[str]) -> str:
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'" for text in scripts
    )
    return "; ".join(directive.format(scripts=hashes) for directive in _POLICY)


def _read(base: Path, relative: str) -> str:
    parts = PurePosixPath(relative).parts
    candidate = (base / Path(*parts)).resolve()
    if ".." in parts or not candidate.is_relative_to(base.resolve()) or not candidate.is_file():
        raise SurfaceDocumentError(f"no such bundle file: {relative}")
    return candidate.read_text(encoding="utf-8")


def _without_scripts(page: str) -> str:
    """The markup only: inline script and style texts may mention ``src=`` as code, not as a reference."""
    return re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", page, flags=re.DOTALL | re.IGNORECASE)
