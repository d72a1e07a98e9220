"""Screen lock -> ``callback(locked)``, where the desktop tells us: the session D-Bus on Linux.

Freedesktop session managers (GNOME, KDE, XFCE, ...) announce the lock screen with the
``ActiveChanged(bool)`` signal of ``org.freedesktop.ScreenSaver`` (GNOME also as
``org.gnome.ScreenSaver``). Without a session bus (a bare Xvfb, a container) there is nothing to
listen to and the host says so once. On macOS and Windows Qt WebEngine reports no lock; there a
locked screen is seen as whatever the window system does to the window (usually nothing: the
focus runs on, which is what a lock must do anyway — it is never an exit).
"""

from __future__ import annotations

from collections.abc import Callable

import structlog
from PySide6.QtCore import SLOT, QObject, Slot

logger = structlog.get_logger("lineup.desktop")

SCREENSAVERS = (
    ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver"),
    ("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver", "org.gnome.ScreenSaver"),
)


class _LockListener(QObject):
    def __init__(self, callback: Callable[[bool], None]) -> None:
        super().__init__()
        self.callback = callback

    @Slot(bool)
    def active_changed(self, active: bool) -> None:
        logger.info("desktop.screen_lock", locked=active)
        self.callback(active)


_listeners: list[_LockListener] = []  # kept alive for the life of the process


def watch_screen_lock(callback: Callable[[bool], None]) -> bool:
    """Subscribe ``callback`` to screen lock changes; return whether anything is listened to."""
    try:
        from PySide6.QtDBus import QDBusConnection
    except ImportError:  # a Qt build without D-Bus (Windows, macOS wheels may lack it)
        logger.info("desktop.screen_lock_unwatched", reason="no QtDBus")
        return False
    bus = QDBusConnection.sessionBus()
    if not bus.isConnected():
        logger.info("desktop.screen_lock_unwatched", reason="no session bus")
        return False
    listener = _LockListener(callback)
    watched = False
    for service, path, interface in SCREENSAVERS:
        watched |= bus.connect(service, path, interface, "ActiveChanged", listener, SLOT("active_changed(bool)"))
    if watched:
        _listeners.append(listener)
    else:
        logger.info("desktop.screen_lock_unwatched", reason="no screensaver signal")
    return watched
