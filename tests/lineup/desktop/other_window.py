"""``python tests/lineup/desktop/other_window.py``: another application's window, taking the keyboard focus.

A person who works in another window has the LineUp window behind it, visible but not active. Under
Xvfb there is no window manager to move the focus, so this window takes it itself
(``activateWindow``: ``XSetInputFocus``) once it is shown, and says so.
"""

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel

app = QApplication(["another-application"])
window = QLabel("Another application")
window.setWindowTitle("Another application")
window.resize(400, 200)
window.show()


def take_focus() -> None:
    window.activateWindow()
    window.raise_()
    if window.isActiveWindow():
        print("other_window.active", flush=True)
    else:
        QTimer.singleShot(100, take_focus)


QTimer.singleShot(100, take_focus)
sys.exit(app.exec())
