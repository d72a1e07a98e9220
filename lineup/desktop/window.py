"""The native window: a ``QWebEngineView`` on the workspace page, and how window events map.

The window adds no behaviour of its own to the workspace; it translates what the operating
system does to the window into what the browser page already reports (docs/decisions/0007):

=====================================  ==================================================
native event                           what the workspace sees
=====================================  ==================================================
minimised, hidden, screen locked       page visibility ``hidden`` -> the page's own
                                       ``visibility`` frame (suspended, never an exit)
restored / shown / unlocked            page visibility ``visible`` -> ``visibility`` frame
                                       (foreground again) and a fresh snapshot
window close (its button, Alt+F4,     ``close_apps.js``: one ``workspace.close`` frame
SIGTERM to the host)                   (all open MiniApps), THEN the window closes
reopen (a new start)                   the page loads and rebuilds from the workspace
                                       snapshot, as a browser refresh does
=====================================  ==================================================

The page is the only thing in the window: navigation leaves the server's origin only into the
system browser, pop-ups are refused, every permission (camera, location, clipboard, ...) is denied
but one — notifications, for the server's own page, asked for by the page's offer during a focus
and shown as the desktop's own (``notifications.py``, docs/decisions/0054) — and nothing is exposed
to scripts: no ``QWebChannel``, no injected objects. A MiniApp Surface inside it is the same
sandboxed ``<iframe>`` it is in a browser (its opaque origin gets no permission).

A Chinese-speaking person on a machine with no CJK font would see every Chinese glyph as a box:
the window says so once, when the page it shows is in Chinese (``warn_without_cjk_font``).
"""

from __future__ import annotations

import json
import time
from http.cookiejar import Cookie
from pathlib import Path

import structlog
from PySide6.QtCore import QByteArray, QEvent, QLocale, Qt, QTimer, QUrl
from PySide6.QtGui import QCloseEvent, QDesktopServices, QFontDatabase
from PySide6.QtNetwork import QNetworkCookie
from PySide6.QtWebEngineCore import QWebEnginePage, QWebEnginePermission, QWebEngineProfile
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QMessageBox

logger = structlog.get_logger("lineup.desktop")

CLOSE_APPS_JS = (Path(__file__).with_name("close_apps.js")).read_text()
# Closing the apps is a round trip per app on a local socket; when the server is gone it fails
# at once. The bound only keeps a wedged page from holding the window open forever.
CLOSE_APPS_TIMEOUT_SECONDS = 5.0
CLOSE_POLL_MS = 50
# Shown in both languages: without a CJK font the Chinese line is boxes itself, the English one and
# the command are still readable.
NO_CJK_FONT_TITLE = "缺少中文字体 / No Chinese font"
NO_CJK_FONT_TEXT = (
    "这台电脑没有安装中文字体，LineUp 里的中文会显示成方框。请安装一个中文字体，例如：\n"  # noqa: RUF001
    "sudo apt-get install fonts-noto-cjk\n\n"
    "No Chinese (CJK) font is installed, so Chinese text in LineUp shows as boxes. Install one, e.g.:\n"
    "sudo apt-get install fonts-noto-cjk"
)


def has_cjk_font() -> bool:
    """Whether any installed font writes Simplified Chinese (Qt asks fontconfig on Linux)."""
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def same_origin(a: QUrl, b: QUrl) -> bool:
    return (a.scheme(), a.host(), a.port()) == (b.scheme(), b.host(), b.port())


class HostPage(QWebEnginePage):
    """The workspace page with the host's policy: the server's origin only, no pop-ups, and no
    permission but notifications for the server's own page."""

    def __init__(self, profile: QWebEngineProfile, origin: QUrl, parent: QWebEngineView) -> None:
        super().__init__(profile, parent)
        self.origin = origin
        self.permissionRequested.connect(self._decide_permission)

    def acceptNavigationRequest(self, url: QUrl, kind: QWebEnginePage.NavigationType, is_main_frame: bool) -> bool:
        if same_origin(url, self.origin):
            return True  # the workspace, the login page, the Surfaces (sandboxed iframes, same server)
        if url.scheme() in {"about", "data"} and not is_main_frame:
            return True  # an empty frame while a Surface (re)loads
        if is_main_frame and kind == QWebEnginePage.NavigationType.NavigationTypeLinkClicked:
            # A link the person clicked: their browser opens it, not this window.
            if url.scheme() in {"http", "https"}:
                QDesktopServices.openUrl(url)
        logger.info("desktop.navigation_refused", url=url.toString(), main_frame=is_main_frame)
        return False

    def createWindow(self, kind: QWebEnginePage.WebWindowType) -> QWebEnginePage | None:
        logger.info("desktop.window_refused")
        return None  # window.open / target=_blank open nothing

    def _decide_permission(self, permission: QWebEnginePermission) -> None:
        kind = permission.permissionType()
        if kind == QWebEnginePermission.PermissionType.Notifications and same_origin(permission.origin(), self.origin):
            # The person clicked "Notify me" in the page's offer: a browser would ask once more, the
            # desktop application the person runs does not (its notifications are its own).
            logger.info("desktop.permission_granted", permission=str(kind))
            permission.grant()
            return
        # No other host or system API for anything in the page; the browser prompts, we refuse.
        logger.info("desktop.permission_denied", permission=str(kind))
        permission.deny()


class WorkspaceWindow(QWebEngineView):
    """The top-level window showing ``<base_url>/workspace/``."""

    def __init__(self, base_url: str, *, title: str = "LineUp") -> None:
        super().__init__()
        self.base_url = base_url.rstrip("/")
        self.origin = QUrl(self.base_url)
        self.setWindowTitle(title)
        # Qt 6's default profile keeps cookies and storage in memory only: the login lives as long
        # as the window, and nothing of the workspace is cached on disk by the host.
        self.profile = QWebEngineProfile.defaultProfile()
        # The desktop's languages, as a browser sends its own: a Chinese desktop gets the Chinese
        # page unless the person chose a language in LineUp (which the server keeps and prefers).
        languages = [tag for tag in QLocale.system().uiLanguages() if tag not in {"C", "POSIX"}]
        if languages:
            self.profile.setHttpAcceptLanguage(", ".join(languages))
        self.setPage(HostPage(self.profile, self.origin, self))
        self.screen_locked = False
        self.apps_closed = False
        self.renderer_alive = True
        self.page().renderProcessTerminated.connect(self._renderer_gone)
        self.page().loadFinished.connect(self._loaded)
        self.font_warning: QMessageBox | None = None
        # Logged whoever changed it: Qt's view itself hides the page when the window is minimised
        # or unmapped; sync_visibility covers what it does not see (the screen lock).
        self.page().visibleChanged.connect(lambda visible: logger.info("desktop.visibility", visible=visible))
        self._closing_since: float | None = None
        self._close_timer = QTimer(self)
        self._close_timer.setInterval(CLOSE_POLL_MS)
        self._close_timer.timeout.connect(self._poll_apps_closed)

    # --- opening ------------------------------------------------------------------------------

    def add_cookies(self, cookies: list[Cookie]) -> None:
        """Hand the HTTP login's cookies to the window's cookie store (before the page loads)."""
        store = self.profile.cookieStore()
        for cookie in cookies:
            native = QNetworkCookie(QByteArray(cookie.name.encode()), QByteArray((cookie.value or "").encode()))
            native.setDomain(cookie.domain.lstrip("."))
            native.setPath(cookie.path or "/")
            native.setHttpOnly(bool(cookie.has_nonstandard_attr("HttpOnly")))
            store.setCookie(native, self.origin)

    def open_workspace(self) -> None:
        self.load(QUrl(f"{self.base_url}/workspace/"))

    def showEvent(self, event: QEvent) -> None:
        super().showEvent(event)
        self.sync_visibility("shown")

    def bring_to_front(self) -> None:
        """A click on one of the window's notifications: show it, restored, in front."""
        if self.isMinimized():
            self.showNormal()
        self.show()
        self.raise_()
        self.activateWindow()

    # --- the person's language and the fonts to write it -----------------------------------------

    def _loaded(self, ok: bool) -> None:
        if ok and self.font_warning is None:
            self.page().runJavaScript("document.documentElement.lang || ''", 0, self.warn_without_cjk_font)

    def warn_without_cjk_font(self, language: object) -> None:
        """Once per window: the page is in Chinese and no installed font can write it."""
        if self.font_warning is not None or not str(language or "").lower().startswith("zh") or has_cjk_font():
            return
        logger.warning("desktop.no_cjk_font", language=language, fix="sudo apt-get install fonts-noto-cjk")
        self.font_warning = QMessageBox(QMessageBox.Icon.Warning, NO_CJK_FONT_TITLE, NO_CJK_FONT_TEXT, parent=self)
        self.font_warning.setWindowModality(Qt.WindowModality.NonModal)
        self.font_warning.show()

    # --- visibility: minimise / hide / lock is never an exit ------------------------------------

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.WindowStateChange:
            self.sync_visibility("window_state")
        elif event.type() == QEvent.Type.ActivationChange:
            # Not visibility: a window behind another is still seen. The page's own focus follows
            # (document.hasFocus()), and it notifies when a focus ends then too.
            logger.info("desktop.window_active", active=self.isActiveWindow())

    def hideEvent(self, event: QEvent) -> None:
        super().hideEvent(event)
        self.sync_visibility("hidden")

    def set_screen_locked(self, locked: bool) -> None:
        self.screen_locked = locked
        self.sync_visibility("screen_lock")

    def sync_visibility(self, cause: str) -> None:
        """Set the page's visibility from the window's: the page then reports it as in a browser.

        ``document.visibilityState`` follows ``QWebEnginePage.visible``; the workspace page's own
        ``visibilitychange`` handler sends the ``visibility`` frame (and re-reads the snapshot when
        it is visible again), so the desktop adds no second path to the Runtime.
        """
        visible = self.isVisible() and not self.isMinimized() and not self.screen_locked
        if self.page().isVisible() != visible:
            logger.info("desktop.visibility_mapped", visible=visible, cause=cause)
            self.page().setVisible(visible)

    # --- close: close the open MiniApps first ---------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.apps_closed:
            logger.info("desktop.window_closed")
            event.accept()
            return
        event.ignore()  # not yet: the open apps are closed first, then close() runs again
        if self._closing_since is not None:
            return  # a second click while closing
        self._closing_since = time.monotonic()
        logger.info("desktop.closing_apps")
        if not self.renderer_alive:
            self._finish_close({"skipped": "the page's renderer is gone"})
            return
        self.page().runJavaScript(CLOSE_APPS_JS)
        self._close_timer.start()

    def _renderer_gone(self, status: QWebEnginePage.RenderProcessTerminationStatus, code: int) -> None:
        # A killed renderer (e.g. Ctrl+C in a terminal signals Chromium's helper processes too)
        # can close nothing; a running focus then keeps its ends_at, as after a browser crash.
        self.renderer_alive = False
        logger.warning("desktop.renderer_gone", status=str(status), exit_code=code)
        if self._closing_since is not None and not self.apps_closed:
            self._finish_close({"skipped": "the page's renderer is gone"})

    def _poll_apps_closed(self) -> None:
        if time.monotonic() - (self._closing_since or 0.0) > CLOSE_APPS_TIMEOUT_SECONDS:
            self._finish_close({"timed_out": True})
            return
        # As a JSON string: PySide6 hands a JS object back as an empty string.
        self.page().runJavaScript("JSON.stringify(window.__lineupDesktopClose || null)", 0, self._on_close_outcome)

    def _on_close_outcome(self, outcome: str) -> None:
        decoded = json.loads(outcome) if outcome else None
        if decoded and not self.apps_closed:
            self._finish_close(decoded)

    def _finish_close(self, outcome: object) -> None:
        self._close_timer.stop()
        self.apps_closed = True
        logger.info("desktop.apps_closed", outcome=json.dumps(outcome, sort_keys=True))
        self.close()
