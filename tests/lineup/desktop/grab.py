"""``python tests/lineup/desktop/grab.py <window id> <file.png>``: the X window's pixels, as the X server has them.

Run under the test's Xvfb (``DISPLAY``); Qt's xcb plugin reads the window with ``GetImage``, so the
picture is the native window itself, not a re-render of the page by the test.
"""

import sys

from PySide6.QtGui import QGuiApplication

app = QGuiApplication(["lineup-grab"])
image = app.primaryScreen().grabWindow(int(sys.argv[1]))
sys.exit(0 if not image.isNull() and image.save(sys.argv[2]) else 1)
