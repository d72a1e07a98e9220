"""Run from ``test_surface_network``: a Surface in Qt WebEngine (the desktop host's engine) tries WebRTC.

``python -m tests.browser.qt_surface_probe <surface url> <udp port>`` loads the Surface as the server
serves it (its CSP with ``sandbox allow-scripts``, so an opaque origin, and the guard script), runs the
same RTCPeerConnection attempt as the Chromium test in it, and prints ``{"result": ...}`` as JSON.
Offscreen: no display is needed, so it does not share the desktop tests' Xvfb.
"""

from __future__ import annotations

import json
import os
import sys

ATTEMPT = """(() => {{
  try {{
    const connection = new RTCPeerConnection({{ iceServers: [{{ urls: "stun:127.0.0.1:{port}" }}] }});
    connection.createDataChannel("out");
    connection.createOffer().then((offer) => connection.setLocalDescription(offer));
    return "constructed";
  }} catch (error) {{
    return `${{error.name}}: ${{error.message}}`;
  }}
}})()"""
DEADLINE_MS = 20_000
GATHERING_MS = 3_000  # long enough for ICE gathering to send its STUN requests when it can


def main(url: str, port: int) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")  # Chromium's OS sandbox (root in CI), not the iframe's
    from PySide6.QtCore import QTimer, QUrl
    from PySide6.QtWebEngineCore import QWebEnginePage
    from PySide6.QtWidgets import QApplication

    app = QApplication([sys.argv[0]])
    page = QWebEnginePage()
    out: dict[str, object] = {}

    def attempted(result: object) -> None:
        out["result"] = result
        QTimer.singleShot(GATHERING_MS, app.quit)

    def loaded(ok: bool) -> None:
        out["loaded"] = ok
        page.runJavaScript(ATTEMPT.format(port=port), 0, attempted)

    page.loadFinished.connect(loaded)
    page.load(QUrl(url))
    QTimer.singleShot(DEADLINE_MS, app.quit)
    app.exec()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
