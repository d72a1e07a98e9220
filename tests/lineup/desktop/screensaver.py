"""``python tests/lineup/desktop/screensaver.py``: the desktop's screen saver, as a session manager runs it.

It owns ``org.freedesktop.ScreenSaver`` on the session bus (``$DBUS_SESSION_BUS_ADDRESS``) and
implements the two methods of that interface a test needs: ``SetActive(bool)`` locks or unlocks
the screen and announces it with the ``ActiveChanged(bool)`` signal, as GNOME, KDE or XFCE do;
``GetActive()`` reads it. The test calls ``SetActive`` with ``dbus-send``, so the Desktop Host
hears a real signal from a real bus peer (``lineup/desktop/screen_lock.py``).
"""

import sys

from PySide6.QtCore import ClassInfo, QCoreApplication, QObject, Slot
from PySide6.QtDBus import QDBusConnection, QDBusMessage

SERVICE = INTERFACE = "org.freedesktop.ScreenSaver"
PATH = "/org/freedesktop/ScreenSaver"


@ClassInfo({"D-Bus Interface": INTERFACE})
class ScreenSaver(QObject):
    def __init__(self, bus: QDBusConnection) -> None:
        super().__init__()
        self.bus = bus
        self.active = False

    @Slot(bool)
    def SetActive(self, active: bool) -> None:  # D-Bus names the methods
        self.active = active
        signal = QDBusMessage.createSignal(PATH, INTERFACE, "ActiveChanged")
        signal.setArguments([active])
        self.bus.send(signal)
        print(f"screensaver.active_changed active={active}", flush=True)

    @Slot(result=bool)
    def GetActive(self) -> bool:  # D-Bus names the methods
        return self.active


app = QCoreApplication(["lineup-screensaver"])
bus = QDBusConnection.sessionBus()
saver = ScreenSaver(bus)
if not (
    bus.registerObject(PATH, saver, QDBusConnection.RegisterOption.ExportAllSlots) and bus.registerService(SERVICE)
):
    print(f"screensaver.failed error={bus.lastError().message()!r}", flush=True)
    sys.exit(1)
print("screensaver.ready", flush=True)
sys.exit(app.exec())
