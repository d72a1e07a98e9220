"""Run from ``test_surface_navigation``: a Surface in the desktop host's page (Qt WebEngine) navigates its frame.

``python -m tests.browser.qt_navigation_probe <server url> <host> <port> [<port> ...]`` builds the desktop
host's ``HostPage`` (its navigation policy: the server's origin only), frames the Notes Surface in it
as the workspace does (``sandbox="allow-scripts"``), has the Surface navigate its own frame to each
port on ``host`` (a loopback address), one navigation per task, and prints ``{"framed": ..., "navigated": ...}`` as JSON
once the navigations had time to connect. Offscreen, like ``qt_surface_probe``.
"""

from __future__ import annotations

import json
import os
import sys

NAVIGATE = """(() => {{
  const host = {host};
  const ports = {ports};
  let n = 0;
  const next = () => {{ location.href = `http://${{host}}:${{ports[n]}}/leak-${{n}}`; n += 1; if (n < ports.length) setTimeout(next, 5); }};
  setTimeout(next, 5);
  return ports.length;
}})()"""
DEADLINE_MS = 30_000
SETTLE_MS = 2_000


def main(server: str, host: str, ports: list[int]) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")
    from PySide6.QtCore import QTimer, QUrl
    from PySide6.QtWebEngineCore import QWebEngineProfile
    from PySide6.QtWebEngineWidgets import QWebEngineView
    from PySide6.QtWidgets import QApplication

    from lineup.desktop.window import HostPage

    class ProbePage(HostPage):
        """The host's policy for everything but the probe's own page (a data: URL in the main frame)."""

        def acceptNavigationRequest(self, url: QUrl, kind: object, is_main_frame: bool) -> bool:
            if is_main_frame and url.scheme() == "data":
                return True
            return super().acceptNavigationRequest(url, kind, is_main_frame)

    app = QApplication([sys.argv[0]])
    view = QWebEngineView()
    origin = QUrl(server)
    page = ProbePage(QWebEngineProfile(view), origin, view)
    view.setPage(page)
    out: dict[str, object] = {}

    def navigated(result: object) -> None:
        out["navigated"] = result
        QTimer.singleShot(SETTLE_MS, app.quit)

    def loaded(ok: bool) -> None:
        if "framed" in out:
            return
        children = page.mainFrame().children()
        out["framed"] = bool(children)
        if not children:
            app.quit()
            return
        children[0].runJavaScript(NAVIGATE.format(host=json.dumps(host), ports=json.dumps(ports)), 0, navigated)

    page.loadFinished.connect(lambda ok: QTimer.singleShot(1_000, lambda: loaded(ok)))
    html = f'<iframe sandbox="allow-scripts" src="{server}/surfaces/notes/"></iframe>'
    page.setHtml(html, QUrl(server + "/workspace/"))
    QTimer.singleShot(DEADLINE_MS, app.quit)
    app.exec()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], [int(port) for port in sys.argv[3:]]))
