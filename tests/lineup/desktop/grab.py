"""``python tests/lineup/desktop/grab.py <window id> <file.png>``: the X window's pixels, as the X server has them.

Run under the test's Xvfb (``DISPLAY``); Qt's xcb plugin reads the window with ``GetImage``, so the
picture is the native window itself, not a re-render of the page by the test. A window just mapped
may not be readable yet (a null image): it is read again until it is, for at most 10 seconds.
"""

import sys
import time

from PySide6.QtGui import QGuiApplication

app = QGuiApplication(["lineup-grab"])
deadline = time.monotonic() + 10
while True:
    image = app.primaryScreen().grabWindow(int(sys.argv[1]))
    if not image.isNull() and image.save(sys.argv[2]):
        sys.exit(0)
    if time.monotonic() > deadline:
        print(f"window {sys.argv[1]}: null={image.isNull()} after 10 s", file=sys.stderr)
        sys.exit(1)
    app.processEvents()
    time.sleep(0.2)
