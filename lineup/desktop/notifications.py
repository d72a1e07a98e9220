"""The page's notifications, shown by the desktop as its own (issue 40, docs/decisions/0054).

The workspace page already says when a focus ends while it is hidden or not in front: it creates a
web ``Notification`` (``static/workspace/notify.js``), after the person said yes to its offer. In
the host that permission request is granted (``window.HostPage``) and Qt WebEngine hands each
notification to ``NativeNotifier.present`` (``QWebEngineProfile.setNotificationPresenter``), which
shows it where the desktop shows notifications:

- on Linux, the freedesktop Notifications service on the session D-Bus
  (``org.freedesktop.Notifications.Notify``: GNOME, KDE, XFCE, dunst, ...). The call is made with
  ``jeepney`` on a thread of its own: PySide6's QtDBus can not send the method's ``u`` and ``as``
  argument types, and a slow notification daemon must not stall the window. Clicking the
  notification (its ``default`` action) brings the window to the front and tells the page;
- elsewhere (Windows, macOS, or no service on the bus) a ``QSystemTrayIcon`` message where the
  platform has a tray; with neither, one log line says the notification could not be shown.

The words are the page's own, so they are in the person's language; nothing else is added.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

import structlog
from PySide6.QtCore import QObject, Signal
from PySide6.QtWebEngineCore import QWebEngineNotification

logger = structlog.get_logger("lineup.desktop")

SERVICE = INTERFACE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
APP_NAME = "LineUp"
CALL_TIMEOUT_SECONDS = 5.0
KEPT_FOR_CLICKS = 20  # the latest notifications a click can still bring the window back for


def freedesktop_notify(summary: str, body: str, *, timeout: float = CALL_TIMEOUT_SECONDS) -> int:
    """``Notify`` on the session bus; return the notification's id (raises when there is no service)."""
    from jeepney import DBusAddress, new_method_call
    from jeepney.io.blocking import open_dbus_connection

    address = DBusAddress(PATH, bus_name=SERVICE, interface=INTERFACE)
    # app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout (-1: the server's)
    call = new_method_call(
        address,
        "Notify",
        "susssasa{sv}i",
        (APP_NAME, 0, "", summary, body, ["default", summary], {}, -1),
    )
    with open_dbus_connection(bus="SESSION") as connection:
        reply = connection.send_and_get_reply(call, timeout=timeout)
    if reply.header.message_type.name == "error":
        raise OSError(f"{SERVICE}.Notify failed: {reply.body}")
    return int(reply.body[0])


def listen_for_clicks(on_click: Callable[[int], None], stop: threading.Event) -> None:
    """Call ``on_click(id)`` for each ``ActionInvoked(id, "default")`` on the session bus, until ``stop``."""
    from jeepney import MatchRule, message_bus
    from jeepney.io.blocking import open_dbus_connection

    rule = MatchRule(type="signal", interface=INTERFACE, member="ActionInvoked", path=PATH)
    with open_dbus_connection(bus="SESSION") as connection:
        connection.send_and_get_reply(message_bus.AddMatch(rule), timeout=CALL_TIMEOUT_SECONDS)
        with connection.filter(rule) as signals:
            while not stop.is_set():
                try:
                    signal = connection.recv_until_filtered(signals, timeout=1.0)
                except TimeoutError:
                    continue
                notification_id, action = signal.body
                if action == "default":
                    on_click(int(notification_id))


class NativeNotifier(QObject):
    """Presents the page's notifications natively; a click on one raises ``activate`` (GUI thread)."""

    _shown = Signal(int, int)  # (freedesktop id, our key), from the sending thread
    _clicked = Signal(int)  # from the listening thread
    _failed = Signal(int, str)  # (our key, reason)

    def __init__(self, activate: Callable[[], None]) -> None:
        super().__init__()
        self.activate = activate
        self.use_bus = bool(os.environ.get("DBUS_SESSION_BUS_ADDRESS")) and os.name == "posix"
        self.pending: dict[int, QWebEngineNotification] = {}  # by our key, until shown or failed
        self.sent = 0
        self.shown: dict[int, QWebEngineNotification] = {}  # by freedesktop id, for the click
        self.tray = None
        self._stop = threading.Event()
        self._shown.connect(self._on_shown)
        self._clicked.connect(self._on_clicked)
        self._failed.connect(self._on_failed)
        if self.use_bus:
            threading.Thread(target=self._listen, name="desktop-notification-clicks", daemon=True).start()

    def present(self, notification: QWebEngineNotification) -> None:
        """Qt WebEngine's notification presenter: called on the GUI thread for each new notification."""
        if self.use_bus:
            self.sent += 1
            self.pending[self.sent] = notification
            args = (notification.title(), notification.message(), self.sent)
            threading.Thread(target=self._send, args=args, name="desktop-notify", daemon=True).start()
            return
        self._show_in_tray(notification, "no session bus")

    def stop(self) -> None:
        self._stop.set()

    def _send(self, title: str, body: str, key: int) -> None:
        try:
            notification_id = freedesktop_notify(title, body)
        except Exception as error:  # no service, a bus error, a timeout: the tray is the fallback
            self._failed.emit(key, f"{type(error).__name__}: {error}")
            return
        self._shown.emit(notification_id, key)

    def _listen(self) -> None:
        try:
            listen_for_clicks(self._clicked.emit, self._stop)
        except Exception as error:  # the bus went away: notifications still show, clicks do nothing
            logger.info("desktop.notification_clicks_unwatched", detail=f"{type(error).__name__}: {error}")

    def _on_shown(self, notification_id: int, key: int) -> None:
        notification = self.pending.pop(key, None)
        if notification is None:
            return
        self.shown[notification_id] = notification
        while len(self.shown) > KEPT_FOR_CLICKS:
            self.shown.pop(next(iter(self.shown)))
        notification.show()  # the page's Notification gets its "show" event
        logger.info("desktop.notification_shown", via="freedesktop", id=notification_id, tag=notification.tag())

    def _on_failed(self, key: int, reason: str) -> None:
        notification = self.pending.pop(key, None)
        if notification is not None:
            self._show_in_tray(notification, reason)

    def _on_clicked(self, notification_id: int) -> None:
        notification = self.shown.pop(notification_id, None)
        if notification is None:
            return  # another application's notification
        logger.info("desktop.notification_clicked", id=notification_id, tag=notification.tag())
        self.activate()
        notification.click()

    def _show_in_tray(self, notification: QWebEngineNotification, reason: str) -> None:
        from PySide6.QtWidgets import QApplication, QStyle, QSystemTrayIcon

        if not QSystemTrayIcon.isSystemTrayAvailable():
            logger.warning("desktop.notification_unshown", tag=notification.tag(), reason=reason)
            return
        if self.tray is None:
            icon = QApplication.windowIcon()
            if icon.isNull():  # a tray entry needs an icon to be shown at all
                icon = QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation)
            self.tray = QSystemTrayIcon(icon, self)
            self.tray.messageClicked.connect(self.activate)
            self.tray.show()
        self.tray.showMessage(notification.title(), notification.message())
        notification.show()
        logger.info("desktop.notification_shown", via="tray", tag=notification.tag())
